import type { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { GenerateOptions } from '../../src/generation/generate-options.js';
import type { GenerateResult } from '../../src/generation/generate-result.js';
import type { CliContext } from '../cli-context.js';
import { UsageError } from '../exit-codes.js';
import { withSpinner } from '../output.js';
import { debugOutcome, prepareCall } from '../prepare-call.js';
import { collectFile, readFileInputs } from '../read-file-inputs.js';

export interface GenerateFlags {
  readonly provider?: string;
  readonly model?: string;
  readonly temperature?: string;
  readonly maxTokens?: string;
  readonly system?: string;
  readonly disableTools?: boolean;
  readonly capability?: string;
  readonly optimizeCost?: boolean;
  readonly timeout?: string;
  readonly schema?: string;
  readonly format: string;
  readonly enableAnalytics?: boolean;
  readonly enableEvaluation?: boolean;
  readonly quiet?: boolean;
  readonly debug?: boolean;
  readonly prompt?: string;
  readonly context?: string;
  readonly file?: readonly string[];
}

function jsonObjectOf(flag: string, text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${flag} must be a JSON object: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError(`${flag} must be a JSON object`);
  return parsed as Record<string, unknown>;
}

function number(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed)) throw new UsageError(`${flag} must be a number (got "${value}")`);
  return parsed;
}

/** The prompt: `--prompt`, else the words given, else standard input when it is not a terminal. */
export async function promptOf(words: readonly string[], context: CliContext, flags: Pick<GenerateFlags, 'prompt'> = {}): Promise<string> {
  if (flags.prompt !== undefined) {
    if (words.length > 0) throw new UsageError('give the prompt once: as --prompt or as the text arguments, not both');
    if (flags.prompt.trim() === '') throw new UsageError('--prompt is empty');
    return flags.prompt;
  }
  if (words.length > 0) return words.join(' ');
  if (!context.io.stdinIsTty) {
    const piped = (await context.io.readStdin()).trim();
    if (piped !== '') return piped;
  }
  throw new UsageError('no prompt: give it as an argument or on standard input (echo "..." | switchyard generate)');
}

/** The generate options of a command line; `--capability`/`--optimize-cost` pick the model from the registry. */
export async function optionsOf(text: string, flags: GenerateFlags, context: CliContext): Promise<GenerateOptions> {
  let provider = flags.provider;
  let model = flags.model;
  const picking = [...(flags.capability !== undefined ? ['--capability'] : []), ...(flags.optimizeCost === true ? ['--optimize-cost'] : [])];
  // Said, not silently dropped: the model named wins over a registry pick.
  if (picking.length > 0 && model !== undefined) context.io.stderr.write(`note: ${picking.join(' and ')} not used: --model ${model} names the model\n`);
  if (picking.length > 0 && model === undefined) {
    const best = (await context.toolkit()).models.findBestModel({
      ...(flags.capability !== undefined ? { capability: flags.capability } : {}),
      ...(flags.optimizeCost === true ? { optimizeFor: 'cost' as const } : {}),
      ...(provider !== undefined && provider !== 'auto' ? { provider } : {}),
    });
    if (best === undefined)
      throw new UsageError(`no model in the registry has ${flags.capability !== undefined ? `the capability "${flags.capability}"` : 'a price'}`);
    provider = best.provider;
    model = best.modelId;
  }
  let schema: Record<string, unknown> | undefined;
  if (flags.schema !== undefined) {
    const path = resolve(context.io.cwd, flags.schema);
    try {
      schema = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    } catch (error) {
      throw new UsageError(`--schema ${flags.schema}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const temperature = number('--temperature', flags.temperature);
  const maxTokens = number('--max-tokens', flags.maxTokens);
  const callContext = jsonObjectOf('--context', flags.context);
  const files = await readFileInputs(flags.file, context.io.cwd);
  const timeout = flags.timeout === undefined ? undefined : /^\d+(\.\d+)?$/.test(flags.timeout) ? Number(flags.timeout) : flags.timeout;
  return {
    input: { text },
    ...(provider !== undefined ? { provider } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(temperature !== undefined ? { temperature } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(flags.system !== undefined ? { systemPrompt: flags.system } : {}),
    ...(flags.disableTools === true ? { disableTools: true } : {}),
    ...(timeout !== undefined ? { timeout } : {}),
    ...(schema !== undefined ? { schema } : {}),
    ...(flags.enableAnalytics === true ? { enableAnalytics: true } : {}),
    ...(flags.enableEvaluation === true ? { enableEvaluation: true } : {}),
    ...(callContext !== undefined ? { context: callContext } : {}),
    ...(files !== undefined ? { files } : {}),
    attribution: { surface: 'cli' },
  };
}

/** The options `generate` and `stream` share; `formats` is the help text of `--format`. */
export function withGenerateOptions(command: Command, formats: string): Command {
  return command
    .option('--prompt <text>', 'the prompt (instead of the text arguments or standard input)')
    .option('-p, --provider <name>', 'provider kind, alias or auto (default: auto)')
    .option('-m, --model <model>', 'model id or registry alias')
    .option('-t, --temperature <0..1>', 'sampling temperature (default 0.7)')
    .option('--max-tokens <n>', 'longest answer in tokens (default 1000)')
    .option('-s, --system <prompt>', 'system prompt')
    .option('--disable-tools', 'do not offer the built-in and MCP tools')
    .option('--capability <capability>', 'pick the best registry model with this capability (vision, functionCalling, …)')
    .option('--optimize-cost', 'pick the cheapest registry model that fits')
    .option('--timeout <duration>', 'milliseconds or 30s, 1.5m, 1h (whole call)')
    .option('--schema <file>', 'JSON Schema file: answer with a validated JSON object')
    .option('--enable-analytics', 'include usage and cost')
    .option('--enable-evaluation', 'score the answer with the judge model')
    .option('--context <json>', 'custom context (a JSON object), echoed into the analytics')
    .option('--file <path>', 'a PDF or CSV document whose text goes with the prompt (repeatable, at most 10, 10 MiB each)', collectFile)
    .option('--debug', 'say on standard error which provider, MCP servers and tools the call uses, and how it ended')
    .option('-f, --format <format>', formats, 'text')
    .option('-q, --quiet', 'no progress output');
}

/** The analytics and evaluation lines of a finished call, on standard error (standard output stays the answer). */
export function reportExtras(context: CliContext, final: GenerateResult): void {
  if (final.analytics !== undefined)
    context.io.stderr.write(
      `analytics: ${final.analytics.tokens.total} tokens, $${final.analytics.cost ?? 0}, ${final.analytics.responseTime} ms (${final.provider}/${final.model})\n`,
    );
  if (final.evaluation !== undefined)
    context.io.stderr.write(
      `evaluation: overall ${final.evaluation.overall}/10 (relevance ${final.evaluation.relevance}, accuracy ${final.evaluation.accuracy}, completeness ${final.evaluation.completeness}): ${final.evaluation.reasoning}\n`,
    );
}

/**
 * `generate` (alias `gen`): plain text streams to standard output as it arrives; `--format json`
 * and `--schema` need the whole result, so they wait for it (behind a spinner on a terminal).
 */
export function registerGenerateCommand(program: Command, context: CliContext): void {
  withGenerateOptions(
    program
      .command('generate')
      .alias('gen')
      .argument('[text...]', 'the prompt (else read from standard input)')
      .description('Generate text with the toolkit (streamed to the terminal; --format json for the whole result)'),
    'text (streamed) or json (the whole result)',
  ).action(async (words: string[], flags: GenerateFlags) => {
    if (flags.format !== 'text' && flags.format !== 'json') throw new UsageError(`--format must be text or json (got "${flags.format}")`);
    const options = await optionsOf(await promptOf(words, context, flags), flags, context);
    const { toolkit } = await context.toolkit();
    const { io } = context;
    const quiet = flags.quiet === true;
    await prepareCall(context, options, flags.debug === true);
    if (flags.format === 'json' || options.schema !== undefined) {
      const result = await withSpinner(io, quiet, 'Generating…', () => toolkit.generate(options));
      if (flags.debug === true) debugOutcome(context, result);
      if (flags.format === 'json') io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      else {
        io.stdout.write(`${result.object !== undefined ? JSON.stringify(result.object, null, 2) : result.content}\n`);
        if (!quiet) reportExtras(context, result);
      }
      return;
    }
    const streamed = await withSpinner(io, quiet, 'Connecting…', () => toolkit.stream(options));
    for await (const chunk of streamed.stream) io.stdout.write(chunk.content);
    io.stdout.write('\n');
    const final = await streamed.final;
    if (flags.debug === true) debugOutcome(context, final);
    if (!quiet) reportExtras(context, final);
  });
}
