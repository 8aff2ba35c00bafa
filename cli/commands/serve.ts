import type { Command } from 'commander';
import { loadConfig } from '../../src/config/load-config.js';
import type { CliContext } from '../cli-context.js';
import { UsageError } from '../exit-codes.js';

/** The generation-only service's port when neither --port nor PORT says otherwise (NeuroLink's demo server). */
const generationOnlyPort = 9876;

function portOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number 0–65535 (got "${value}")`);
  return port;
}

/** Stops `stop` on SIGTERM/SIGINT, then exits: the one place long-running commands end. */
export function onSignals(context: CliContext, stop: () => Promise<void>): void {
  let stopping = false;
  const handle = (signal: string) => {
    if (stopping) return;
    stopping = true;
    context.io.stderr.write(`${signal}: stopping\n`);
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        context.io.stderr.write(`shutdown failed: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => handle('SIGTERM'));
  process.once('SIGINT', () => handle('SIGINT'));
}

/** `serve` (the unified service, or `--only generation`) and the `models serve` implementation. */
export function registerServeCommand(program: Command, context: CliContext): void {
  program
    .command('serve')
    .description('Run the HTTP API (embedded mode unless REDIS_URL / KAFKA_BROKERS / CLICKHOUSE_URL are set)')
    .option('--only <surface>', 'serve one surface alone: generation (default port 9876)')
    .option('--port <port>', 'listen port (default PORT, 8080; 9876 for --only generation)')
    .action(async (flags: { only?: string; port?: string }) => {
      if (flags.only !== undefined && flags.only !== 'generation') throw new UsageError(`--only takes "generation" (got "${flags.only}")`);
      const port = portOf(flags.port) ?? (flags.only === 'generation' && context.io.env['PORT'] === undefined ? generationOnlyPort : undefined);
      const config = port === undefined ? context.config : loadConfig({ ...context.io.env, PORT: String(port) });
      const logger = context.serviceLogger();
      // The whole service loads only for this command: see program.ts.
      const { startServer } = await import('../start-service.js');
      const server = await startServer(config, logger, { surfaces: flags.only === 'generation' ? 'generation' : 'all' });
      context.keepRunning = true;
      onSignals(context, () => server.stop());
    });
}

export async function serveModels(context: CliContext, port: number): Promise<void> {
  const { buildModelServer } = await import('../../api/model-server.js');
  const app = await buildModelServer((await context.toolkit()).models);
  const url = await app.listen({ port, host: context.io.env['HOST'] ?? '127.0.0.1' });
  context.io.stderr.write(
    `model registry served on ${url} (GET /models, /models/search, /models/provider/:provider, /models/resolve/:alias, /api/v1/models, /health)\n`,
  );
  context.keepRunning = true;
  onSignals(context, () => app.close());
}
