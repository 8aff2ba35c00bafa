import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { UsageError } from '../exit-codes.js';
import { withSpinner } from '../output.js';
import { debugOutcome, prepareCall } from '../prepare-call.js';
import { optionsOf, promptOf, reportExtras, withGenerateOptions, type GenerateFlags } from './generate.js';

/** One line of `stream --format json`: the same events as `POST /api/stream`, one JSON object a line. */
function line(context: CliContext, event: Readonly<Record<string, unknown>>): void {
  context.io.stdout.write(`${JSON.stringify(event)}\n`);
}

/**
 * `stream`: text as it arrives, always (a `--schema` answer streams as its JSON text and is
 * validated at the end). `--format json` writes newline-delimited events (start, chunk…, complete)
 * for scripts that want the chunks and the usage.
 */
export function registerStreamCommand(program: Command, context: CliContext): void {
  withGenerateOptions(
    program
      .command('stream')
      .argument('[text...]', 'the prompt (else read from standard input)')
      .description('Stream generated text to standard output as it arrives (--format json: one JSON event a line)'),
    'text, or json (newline-delimited start/chunk/complete events)',
  ).action(async (words: string[], flags: GenerateFlags) => {
    if (flags.format !== 'text' && flags.format !== 'json') throw new UsageError(`--format must be text or json (got "${flags.format}")`);
    const options = await optionsOf(await promptOf(words, context, flags), flags, context);
    const { toolkit } = await context.toolkit();
    const quiet = flags.quiet === true;
    await prepareCall(context, options, flags.debug === true);
    // The toolkit resolves `stream` once the first chunk is in: the spinner covers the wait for it.
    const streamed = await withSpinner(context.io, quiet, 'Connecting…', () => toolkit.stream(options));
    if (flags.format === 'text') {
      for await (const chunk of streamed.stream) context.io.stdout.write(chunk.content);
      context.io.stdout.write('\n');
      const final = await streamed.final;
      if (flags.debug === true) debugOutcome(context, final);
      if (!quiet) reportExtras(context, final);
      return;
    }
    line(context, { type: 'start', streamId: streamed.metadata.streamId, provider: streamed.provider, model: streamed.model });
    for await (const chunk of streamed.stream) line(context, { type: 'chunk', content: chunk.content });
    const final = await streamed.final;
    if (flags.debug === true) debugOutcome(context, final);
    line(context, {
      type: 'complete',
      streamId: streamed.metadata.streamId,
      provider: final.provider,
      model: final.model,
      usage: final.usage,
      finishReason: final.finishReason,
      totalChunks: streamed.metadata.totalChunks,
      responseTime: final.responseTime,
      ...(final.object !== undefined ? { object: final.object } : {}),
      ...(final.analytics !== undefined ? { analytics: final.analytics } : {}),
      ...(final.evaluation !== undefined ? { evaluation: final.evaluation } : {}),
    });
  });
}
