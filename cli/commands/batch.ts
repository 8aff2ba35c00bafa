import type { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { loadToolkitEnv } from '../../src/config/load-toolkit-env.js';
import type { Runtime } from '../create-runtime.js';
import type { BatchWiring, startGenerationWorker } from '../create-batch-service.js';
import type { BatchService } from '../../src/generation/batch/batch-service.js';
import type { CliContext } from '../cli-context.js';
import { UsageError } from '../exit-codes.js';
import { parseListFormat, renderList, renderRecord, type ListFormat } from '../output.js';

interface Opened {
  readonly runtime: Runtime;
  readonly wiring: BatchWiring;
  readonly batches: BatchService;
  /** Runs the queue's jobs in this process (an embedded submit, or `--wait`). */
  readonly startWorker: typeof startGenerationWorker;
}

const batchColumns = ['batchId', 'status', 'total', 'pending', 'succeeded', 'failed', 'cancelled'];

/**
 * `batch submit|status|results|cancel` on the process's own runtime: BullMQ and Redis when
 * REDIS_URL is set (the generation workers run the jobs), else the embedded queue under DATA_DIR,
 * whose jobs run only while a process holds them (so an embedded submit waits for its batch).
 */
export function registerBatchCommands(program: Command, context: CliContext): void {
  const batch = program.command('batch').description('Batch generation jobs: submit prompts from a file, follow progress, read results, cancel');

  async function open(): Promise<Opened> {
    // The runtime and the toolkit load only when a batch command runs: see program.ts.
    const [{ llmCallPublisher }, { runtimeDefaults, createRuntime }, { createBatchService, startGenerationWorker }, { createToolkit }] = await Promise.all([
      import('../../src/generation/publish-llm-calls.js'),
      import('../create-runtime.js'),
      import('../create-batch-service.js'),
      import('../create-toolkit.js'),
    ]);
    const logger = context.quietLogger();
    const runtime = await createRuntime(context.config, logger, { analytics: false });
    const { toolkit } = createToolkit({
      logger,
      cwd: context.io.cwd,
      env: loadToolkitEnv({ cwd: context.io.cwd, processEnv: context.io.env }),
      onCall: llmCallPublisher(runtime.bus, { logger }),
    });
    const wiring: BatchWiring = { state: runtime.state, jobs: runtime.jobs, models: toolkit, clock: runtimeDefaults.clock, logger };
    return { runtime, wiring, batches: createBatchService(context.config, wiring), startWorker: startGenerationWorker };
  }
  async function withBatches<T>(work: (opened: Opened) => Promise<T>): Promise<T> {
    const opened = await open();
    try {
      return await work(opened);
    } finally {
      await opened.runtime.close();
    }
  }
  const show = (format: ListFormat, view: Readonly<Record<string, unknown>>) =>
    context.io.stdout.write(renderRecord(format, format === 'table' ? Object.fromEntries(batchColumns.map((key) => [key, view[key]])) : view));
  const merchantOf = (flags: { merchant?: string }) => flags.merchant ?? context.io.env['SWITCHYARD_MERCHANT'] ?? 'cli';

  batch
    .command('submit')
    .argument('<file>', 'prompts, one per line (- for standard input)')
    .description('Submit a batch (one job per prompt); embedded mode waits for it, --wait waits in distributed mode too')
    .option('-p, --provider <name>', 'provider for every prompt (default: auto, fixed at submit)')
    .option('-m, --model <model>', 'model')
    .option('-t, --temperature <0..1>', 'temperature')
    .option('--max-tokens <n>', 'longest answer per prompt')
    .option('-s, --system <prompt>', 'system prompt')
    .option('--timeout <duration>', 'per prompt: milliseconds or 30s, 2m…')
    .option('--merchant <id>', 'the merchant the batch is for (default SWITCHYARD_MERCHANT or "cli")')
    .option('--wait', 'wait until every prompt is answered or dead-lettered')
    .option('-f, --format <format>', 'table, json or yaml', 'table')
    .option('-q, --quiet', 'no progress output')
    .action(
      async (
        file: string,
        flags: {
          provider?: string;
          model?: string;
          temperature?: string;
          maxTokens?: string;
          system?: string;
          timeout?: string;
          merchant?: string;
          wait?: boolean;
          format?: string;
          quiet?: boolean;
        },
      ) => {
        const format = parseListFormat(flags.format);
        const text =
          file === '-'
            ? await context.io.readStdin()
            : await readFile(resolve(context.io.cwd, file), 'utf8').catch((error: unknown) => {
                throw new UsageError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
              });
        const prompts = text
          .split(/\r?\n/)
          .map((line) => line.trim())
          .filter((line) => line !== '');
        if (prompts.length === 0) throw new UsageError(`${file} holds no prompt (one per line)`);
        const numberOf = (flag: string, value: string | undefined) => {
          if (value === undefined) return undefined;
          const parsed = Number(value);
          if (!Number.isFinite(parsed)) throw new UsageError(`${flag} must be a number (got "${value}")`);
          return parsed;
        };
        const temperature = numberOf('--temperature', flags.temperature);
        const maxTokens = numberOf('--max-tokens', flags.maxTokens);
        await withBatches(async ({ runtime, wiring, batches, startWorker }) => {
          const view = await batches.submit({
            merchantId: merchantOf(flags),
            prompts,
            options: {
              ...(flags.provider !== undefined ? { provider: flags.provider } : {}),
              ...(flags.model !== undefined ? { model: flags.model } : {}),
              ...(temperature !== undefined ? { temperature } : {}),
              ...(maxTokens !== undefined ? { maxTokens } : {}),
              ...(flags.system !== undefined ? { systemPrompt: flags.system } : {}),
              ...(flags.timeout !== undefined ? { timeout: /^\d+$/.test(flags.timeout) ? Number(flags.timeout) : flags.timeout } : {}),
            },
          });
          const wait = flags.wait === true || runtime.mode.jobs === 'embedded';
          if (!wait) {
            show(format, view as unknown as Record<string, unknown>);
            return;
          }
          const worker = await startWorker(context.config, wiring, batches);
          const progress =
            context.io.stderrIsTty && flags.quiet !== true
              ? setInterval(() => {
                  void batches
                    .status(view.batchId)
                    .then((now) => now && context.io.stderr.write(`\r${now.succeeded + now.failed + now.cancelled}/${now.total} done (${now.failed} failed)`));
                }, 250)
              : undefined;
          try {
            await worker.caughtUp();
          } finally {
            if (progress !== undefined) {
              clearInterval(progress);
              context.io.stderr.write('\r\u001b[2K');
            }
            await worker.close();
          }
          const done = await batches.status(view.batchId);
          show(format, (done ?? view) as unknown as Record<string, unknown>);
        });
      },
    );

  const byId = (name: string, description: string) =>
    batch.command(name).argument('<batchId>', 'the batch id').description(description).option('-f, --format <format>', 'table, json or yaml', 'table');

  byId('status', "A batch's progress").action(async (batchId: string, flags: { format?: string }) => {
    const format = parseListFormat(flags.format);
    const view = await withBatches(({ batches }) => batches.status(batchId));
    if (view === undefined) throw new UsageError(`no batch ${batchId}`);
    show(format, view as unknown as Record<string, unknown>);
  });

  byId('results', "A page of a batch's answers and dead-letter entries, in prompt order")
    .option('--offset <n>', 'first item', '0')
    .option('--limit <n>', 'items per page (1–1000)', '100')
    .action(async (batchId: string, flags: { format?: string; offset: string; limit: string }) => {
      const format = parseListFormat(flags.format);
      const page = await withBatches(({ batches }) => batches.results(batchId, { offset: Number(flags.offset), limit: Number(flags.limit) }));
      if (page === undefined) throw new UsageError(`no batch ${batchId}`);
      const rows = page.items.map((item) => {
        const entry = item as unknown as Record<string, unknown>;
        return {
          index: entry['index'],
          status: entry['status'],
          answer: entry['content'] ?? (entry['error'] as { errorClass?: string } | undefined)?.errorClass,
        };
      });
      context.io.stdout.write(renderList(format, page, rows, ['index', 'status', 'answer']));
    });

  byId('cancel', 'Cancel a batch: prompts not started are dropped (a finished batch keeps its final status)').action(
    async (batchId: string, flags: { format?: string }) => {
      const format = parseListFormat(flags.format);
      const view = await withBatches(({ batches }) => batches.cancel(batchId));
      if (view === undefined) throw new UsageError(`no batch ${batchId}`);
      // A finished batch keeps its final status: nothing was left to cancel.
      if (view.status === 'completed') context.io.stderr.write(`batch ${batchId} had already finished (completed): nothing to cancel\n`);
      show(format, view as unknown as Record<string, unknown>);
    },
  );
}
