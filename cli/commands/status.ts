import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { parseListFormat, renderList, withSpinner } from '../output.js';

/** `status`: which providers this machine can use, from settings (and with --probe, a 1-token call each). */
export function registerStatusCommand(program: Command, context: CliContext): void {
  program
    .command('status')
    .description('Providers configured here and the one auto selection picks (--probe makes a paid 1-token call to each)')
    .option('--probe', 'call each configured provider once')
    .option('-f, --format <format>', 'table, json or yaml', 'table')
    .option('-q, --quiet', 'no progress output')
    .action(async (flags: { probe?: boolean; format?: string; quiet?: boolean }) => {
      const format = parseListFormat(flags.format);
      const { toolkit } = await context.toolkit();
      const statuses = await withSpinner(context.io, flags.quiet === true, 'Checking providers…', () =>
        toolkit.getProviderStatus({ probe: flags.probe === true }),
      );
      let best: string | null = null;
      try {
        best = await toolkit.getBestProvider();
      } catch {
        best = null;
      }
      const rows = statuses.map((status) => ({
        provider: status.provider,
        status: status.status,
        model: status.model,
        missing: status.missing,
        responseTime: status.responseTime,
        error: status.error,
      }));
      const columns = flags.probe === true ? ['provider', 'status', 'model', 'responseTime', 'error'] : ['provider', 'status', 'model', 'missing'];
      context.io.stdout.write(renderList(format, { bestProvider: best, providers: statuses }, rows, columns));
      if (format === 'table') context.io.stdout.write(`\nauto selection: ${best ?? 'none (configure a provider: see README, Generation toolkit)'}\n`);
    });
}
