import { Command, CommanderError } from 'commander';
import { SwitchyardError } from '../src/errors/switchyard-error.js';
import { VERSION } from '../src/toolkit/version.js';
import { acceptCamelCaseOptions, optionTermWithCamelCase } from './camel-case-options.js';
import { CliContext } from './cli-context.js';
import { commandIndex } from './command-index.js';
import { registerBatchCommands } from './commands/batch.js';
import { registerConfigCommands } from './commands/config.js';
import { registerGatewayCommands } from './commands/gateway.js';
import { registerGenerateCommand } from './commands/generate.js';
import { registerMcpCommands } from './commands/mcp.js';
import { registerModelCommands } from './commands/models.js';
import { registerProviderCommands } from './commands/provider.js';
import { registerServeCommand, serveModels } from './commands/serve.js';
import { registerStatusCommand } from './commands/status.js';
import { registerStreamCommand } from './commands/stream.js';
import { registerWorkerCommand } from './commands/worker.js';
import { ExitWith, exitCodeOf, exitCodes } from './exit-codes.js';
import type { CliIo } from './io.js';

/**
 * The whole `switchyard` command tree; commander writes help and usage errors to `io`.
 *
 * Each command module registers its arguments, options and help here, and imports what its action
 * runs (the service, a worker, the toolkit and its providers, the MCP client) inside the action:
 * `switchyard --version` or `--help` loads some 260 modules instead of the service's 3,200, and
 * takes 0.4 s of CPU instead of 3.3 s (two-core host, 2026-12-02). A static import of such a module
 * in a command file puts that cost back on every command.
 */
export function buildProgram(context: CliContext): Command {
  const program = new Command();
  program
    .name('switchyard')
    .description('Routes traffic to providers and learns from the outcome: the payment-routing service and the text-generation toolkit.')
    .version(VERSION, '-V, --version')
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .configureOutput({
      writeOut: (text) => context.io.stdout.write(text),
      writeErr: (text) => context.io.stderr.write(text),
      // Help is as wide as the terminal, else 80 columns: the same text on every machine for pipes and tests.
      getOutHelpWidth: () => context.io.stdoutColumns ?? 80,
      getErrHelpWidth: () => 80,
    })
    .configureHelp({ optionTerm: optionTermWithCamelCase });
  registerServeCommand(program, context);
  registerWorkerCommand(program, context);
  registerGenerateCommand(program, context);
  registerStreamCommand(program, context);
  registerModelCommands(program, context, (port) => serveModels(context, port));
  registerMcpCommands(program, context);
  registerBatchCommands(program, context);
  registerStatusCommand(program, context);
  registerGatewayCommands(program, context);
  registerConfigCommands(program, context);
  registerProviderCommands(program, context);
  acceptCamelCaseOptions(program);
  program.addHelpText(
    'after',
    `
Every command and its options (each --kebab-case option also takes its camelCase spelling, e.g. --maxTokens):
${commandIndex(program)}
Exit codes: 0 ok, 1 unexpected failure, 2 usage (bad command line or option), 3 configuration or
credentials (missing API key, refused credentials, MCP config), 4 provider or network failure, 5 timeout.
Environment: see docs/configuration.md (PORT, DATA_DIR, REDIS_URL, KAFKA_BROKERS, CLICKHOUSE_URL, OPENAI_API_KEY, …).`,
  );
  return program;
}

export interface CliRun {
  /** The exit code, or `running` when a server or worker keeps the process alive. */
  readonly outcome: number | 'running';
}

/**
 * Runs one command line. Errors end as a one-line message on standard error and the exit code of
 * their kind (never a stack trace for an expected failure).
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<CliRun> {
  const context = new CliContext(io);
  const program = buildProgram(context);
  if (argv.length === 0) {
    program.outputHelp({ error: true });
    return { outcome: exitCodes.usage };
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return { outcome: context.keepRunning ? 'running' : exitCodes.ok };
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version end with 0; every other commander error is a usage error (message already written).
      return { outcome: error.exitCode === 0 ? exitCodes.ok : exitCodes.usage };
    }
    if (!(error instanceof ExitWith)) io.stderr.write(`switchyard: ${messageOf(error)}\n`);
    return { outcome: exitCodeOf(error) };
  } finally {
    if (!context.keepRunning) await context.close();
  }
}

function messageOf(error: unknown): string {
  if (SwitchyardError.isInstance(error)) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
