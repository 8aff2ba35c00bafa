import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { ExitWith, exitCodes, UsageError } from '../exit-codes.js';
import { parseListFormat, renderList, withSpinner } from '../output.js';

/** Longest probe a caller may ask for: the command is a check, not a wait. */
const maxProbeMs = 30_000;

/**
 * `provider status`: every provider kind, configured or not (from settings), and for the configured
 * ones a cheap bounded probe: one 1-token call each, all at once, each cut at `--timeout`.
 * Exit 4 when a configured provider fails its probe.
 */
export function registerProviderCommands(program: Command, context: CliContext): void {
  const provider = program.command('provider').description('Model providers: which are configured here, and whether they answer');
  provider
    .command('status')
    .description('Configured providers (from settings) and a 1-token probe of each, bounded by --timeout; exit 4 when one fails')
    .option('--no-probe', 'settings only: no call to any provider')
    .option('--timeout <ms>', `longest wait for each probe in milliseconds (1–${maxProbeMs})`, '5000')
    .option('-f, --format <format>', 'table, json or yaml', 'table')
    .option('-q, --quiet', 'no progress output')
    .action(async (flags: { probe: boolean; timeout: string; format?: string; quiet?: boolean }) => {
      const format = parseListFormat(flags.format);
      const timeoutMs = Number(flags.timeout);
      if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > maxProbeMs)
        throw new UsageError(`--timeout must be whole milliseconds from 1 to ${maxProbeMs} (got "${flags.timeout}")`);
      const { toolkit } = await context.toolkit();
      const statuses = await withSpinner(context.io, flags.quiet === true, 'Probing providers…', () =>
        toolkit.getProviderStatus({ probe: flags.probe, timeoutMs }),
      );
      const rows = statuses.map((status) => ({
        provider: status.provider,
        configured: status.configured,
        status: status.status,
        model: status.model,
        responseTime: status.responseTime,
        detail: status.error ?? (status.missing !== undefined && status.missing.length > 0 ? `set ${status.missing.join(' and ')}` : undefined),
      }));
      const columns = flags.probe
        ? ['provider', 'configured', 'status', 'model', 'responseTime', 'detail']
        : ['provider', 'configured', 'status', 'model', 'detail'];
      context.io.stdout.write(renderList(format, { probed: flags.probe, timeoutMs, providers: statuses }, rows, columns));
      if (statuses.some((status) => status.status === 'failed')) throw new ExitWith(exitCodes.provider);
    });
}
