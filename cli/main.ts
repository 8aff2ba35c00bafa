#!/usr/bin/env node
import { startServer } from '../api/server.js';
import { loadConfig } from '../src/config/load-config.js';
import { SwitchyardError } from '../src/errors/switchyard-error.js';
import { createLogger } from './create-logger.js';

const usage = `switchyard <command>

Commands:
  serve                 run the HTTP API (embedded mode unless REDIS_URL / KAFKA_BROKERS / CLICKHOUSE_URL are set)
  worker <name>         run one worker process: sr-windows | analytics-sink | generation
  help                  show this text

Environment: see README.md (PORT, DATA_DIR, LOG_LEVEL, ADMIN_SECRET, REDIS_URL, KAFKA_BROKERS, CLICKHOUSE_URL, JWT_SECRET, …).`;

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${usage}\n`);
    return command === undefined ? 2 : 0;
  }
  // The one place that reads the process environment.
  // eslint-disable-next-line n/no-process-env
  const config = loadConfig(process.env);
  const logger = createLogger(config);

  if (command === 'serve') {
    const server = await startServer(config, logger);
    const shutdown = (signal: string) => {
      logger.info({ signal }, 'signal received');
      server.stop().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    process.once('SIGTERM', () => shutdown('SIGTERM'));
    process.once('SIGINT', () => shutdown('SIGINT'));
    return -1; // keep running
  }
  if (command === 'worker') {
    const { runWorker } = await import('./run-worker.js');
    return runWorker(rest[0], config, logger);
  }
  process.stderr.write(`unknown command: ${command}\n\n${usage}\n`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    const message = SwitchyardError.isInstance(error) ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`switchyard: ${message}\n`);
    process.exit(1);
  },
);
