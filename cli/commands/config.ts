import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CliContext } from '../cli-context.js';
import { ExitWith, exitCodes, UsageError } from '../exit-codes.js';
import { parseListFormat, renderRecord } from '../output.js';

/** The report's code reads every provider's definition (their SDKs): loaded only when a config command runs (see program.ts). */
const configReport = () => import('../config-report.js');

/** `config show|validate|init`: the settings this process runs with (secrets redacted), their check, a starter `.env`. */
export function registerConfigCommands(program: Command, context: CliContext): void {
  const config = program.command('config').description('Settings: show the effective ones (secrets redacted), validate them, write a starter .env');

  config
    .command('show')
    .description('The effective settings: service variables with defaults, toolkit variables (environment and .env), files read; secrets redacted')
    .option('-f, --format <format>', 'table, json or yaml (table: yaml)', 'table')
    .action(async (flags: { format?: string }) => {
      const format = parseListFormat(flags.format);
      const { effectiveConfig } = await configReport();
      context.io.stdout.write(renderRecord(format === 'table' ? 'yaml' : format, await effectiveConfig(context.io)));
    });

  config
    .command('validate')
    .description('Check every setting a start or a command would refuse (environment, .env, .mcp-config.json, config/models.json); exit 3 on an error')
    .option('-f, --format <format>', 'table, json or yaml', 'table')
    .action(async (flags: { format?: string }) => {
      const format = parseListFormat(flags.format);
      const { validateConfig } = await configReport();
      const report = await validateConfig(context.io);
      if (format !== 'table') context.io.stdout.write(renderRecord(format, { ...report }));
      else {
        const lines = [
          ...report.checked.map((what) => `checked: ${what}`),
          ...report.warnings.map((warning) => `warning: ${warning}`),
          ...report.errors.map((error) => `error: ${error}`),
          report.valid ? 'configuration is valid' : `configuration is invalid: ${report.errors.length} error(s)`,
        ];
        context.io.stdout.write(`${lines.join('\n')}\n`);
      }
      if (!report.valid) throw new ExitWith(exitCodes.configuration);
    });

  config
    .command('init')
    .description('Write a starter .env (every provider variable, commented out) in the working directory; never over an existing one without --force')
    .option('--force', 'overwrite an existing .env')
    .action(async (flags: { force?: boolean }) => {
      const path = join(context.io.cwd, '.env');
      if (existsSync(path) && flags.force !== true) throw new UsageError(`${path} exists; not overwritten (add --force to replace it)`);
      const { starterEnvFile } = await configReport();
      await writeFile(path, starterEnvFile(), { mode: 0o600 });
      context.io.stdout.write(`wrote ${path}: set a provider key in it, then check with: switchyard config validate\n`);
    });
}
