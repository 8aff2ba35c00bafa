import type { Command } from 'commander';
import type { ModelConfig } from '../../src/generation/models/model-config.js';
import type { CliContext } from '../cli-context.js';
import { UsageError } from '../exit-codes.js';
import { parseListFormat, renderList, renderRecord } from '../output.js';
import { registerModelInsightCommands } from './models-insights.js';

const modelColumns = ['provider', 'key', 'capabilities', 'input', 'output', 'context', 'aliases'];

/** A registry model as a table row (prices in USD per 1K tokens). */
function modelRow(model: ModelConfig): Record<string, unknown> {
  return {
    provider: model.provider,
    key: model.key,
    capabilities: model.capabilities,
    input: model.pricing?.input,
    output: model.pricing?.output,
    context: model.contextWindow,
    aliases: model.aliases,
    ...(model.deprecated ? { key: `${model.key} (deprecated)` } : {}),
  };
}

function price(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0) throw new UsageError(`${flag} must be a non-negative number of USD per 1K tokens (got "${value}")`);
  return parsed;
}

interface ListFlags {
  readonly provider?: string;
  readonly capability?: string;
  readonly maxPrice?: string;
  readonly format?: string;
  readonly excludeDeprecated?: boolean;
}

/** `models list|search|best|resolve|compare|stats|serve` over the dynamic model registry (no network). */
export function registerModelCommands(program: Command, context: CliContext, serve: (port: number) => Promise<void>): void {
  const models = program.command('models').description('The model registry: list, search, pick the best, resolve aliases, compare, stats, serve it over HTTP');
  const format = (command: Command) => command.option('-f, --format <format>', 'table, json or yaml', 'table');

  const list = async (flags: ListFlags) => {
    const output = parseListFormat(flags.format);
    const found = (await context.toolkit()).models.searchModels({
      ...(flags.provider !== undefined ? { provider: flags.provider } : {}),
      ...(flags.capability !== undefined ? { capability: flags.capability } : {}),
      ...(flags.maxPrice !== undefined ? { maxPrice: price('--max-price', flags.maxPrice) as number } : {}),
      ...(flags.excludeDeprecated === true ? { excludeDeprecated: true } : {}),
    });
    context.io.stdout.write(renderList(output, found, found.map(modelRow), modelColumns));
  };

  format(
    models
      .command('list')
      .description('Every model, cheapest first')
      .option('--provider <provider>', 'only this provider')
      .option('--capability <capability>', 'only models with this capability'),
  ).action((flags: ListFlags) => list(flags));
  format(
    models
      .command('search')
      .description('Models with a capability, under a price, of a provider; cheapest first')
      .option('--capability <capability>', 'vision, functionCalling, …')
      .option('--max-price <usd>', 'average of input and output price, USD per 1K tokens')
      .option('--provider <provider>', 'only this provider')
      .option('--exclude-deprecated', 'leave deprecated models out'),
  ).action((flags: ListFlags) => list(flags));

  format(
    models
      .command('best')
      .description('The best model for a need (the registry’s findBestModel)')
      .option('--capability <capability>', 'required capability')
      .option('--max-price <usd>', 'highest average price, USD per 1K tokens')
      .option('--optimize-for <goal>', 'cost, speed or quality', 'quality')
      .option('--provider <provider>', 'only this provider'),
  ).action(async (flags: ListFlags & { optimizeFor: string }) => {
    const output = parseListFormat(flags.format);
    if (!['cost', 'speed', 'quality'].includes(flags.optimizeFor))
      throw new UsageError(`--optimize-for must be cost, speed or quality (got "${flags.optimizeFor}")`);
    const best = (await context.toolkit()).models.findBestModel({
      optimizeFor: flags.optimizeFor as 'cost' | 'speed' | 'quality',
      ...(flags.capability !== undefined ? { capability: flags.capability } : {}),
      ...(flags.maxPrice !== undefined ? { maxPrice: price('--max-price', flags.maxPrice) as number } : {}),
      ...(flags.provider !== undefined ? { provider: flags.provider } : {}),
    });
    if (best === undefined) throw new UsageError('no model of the registry meets these requirements');
    context.io.stdout.write(renderRecord(output, { ...best }));
  });

  format(models.command('resolve').argument('<alias>', 'alias or model name').description('The model an alias or name designates')).action(
    async (alias: string, flags: ListFlags) => {
      const output = parseListFormat(flags.format);
      const model = (await context.toolkit()).models.getModelConfig(alias);
      if (model === undefined) throw new UsageError(`no model is named or aliased "${alias}"`);
      context.io.stdout.write(
        renderRecord(output, {
          alias,
          provider: model.provider,
          modelKey: model.key,
          model: model.id,
          capabilities: model.capabilities,
          pricing: model.pricing,
        }),
      );
    },
  );

  models
    .command('serve')
    .description(
      'Serve the registry over HTTP alone (GET /models, /models/search, /models/provider/:p, /models/resolve/:alias, /api/v1/models…), read only, no auth',
    )
    .option('--port <port>', 'port (default MODEL_SERVER_PORT or 3001)')
    .action(async (flags: { port?: string }) => {
      const port = Number(flags.port ?? context.io.env['MODEL_SERVER_PORT'] ?? 3001);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number (got "${flags.port}")`);
      await serve(port);
    });
  registerModelInsightCommands(models, context);
}
