import type { Command } from 'commander';
import { averagePrice, type ModelConfig } from '../../src/generation/models/model-config.js';
import type { CliContext } from '../cli-context.js';
import { UsageError } from '../exit-codes.js';
import { parseListFormat, renderList } from '../output.js';

/** Rounded for display: registry prices are USD per 1K tokens with at most a few significant digits. */
const usd = (value: number | undefined): number | undefined => (value === undefined ? undefined : Number(value.toPrecision(6)));

function byPrice(a: ModelConfig, b: ModelConfig): number {
  return (averagePrice(a) ?? Number.POSITIVE_INFINITY) - (averagePrice(b) ?? Number.POSITIVE_INFINITY) || a.id.localeCompare(b.id);
}

/** `models compare <a> <b> …`: the named models side by side, with the cheapest and the largest context named. */
async function compare(context: CliContext, names: readonly string[], format: string | undefined): Promise<void> {
  const output = parseListFormat(format);
  if (names.length < 2) throw new UsageError('models compare needs at least two models (ids, keys or aliases)');
  const registry = (await context.toolkit()).models;
  const models = names.map((name) => {
    const model = registry.getModelConfig(name);
    if (model === undefined) throw new UsageError(`no model is named or aliased "${name}"`);
    return { name, model };
  });
  const rows = models.map(({ name, model }) => ({
    model: name,
    provider: model.provider,
    id: model.id,
    input: model.pricing?.input,
    output: model.pricing?.output,
    average: usd(averagePrice(model)),
    context: model.contextWindow,
    speed: model.metadata.speed,
    quality: model.metadata.quality,
    capabilities: model.capabilities,
    deprecated: model.deprecated,
  }));
  const priced = models.filter(({ model }) => averagePrice(model) !== undefined).sort((a, b) => byPrice(a.model, b.model));
  const widest = [...models].sort((a, b) => (b.model.contextWindow ?? 0) - (a.model.contextWindow ?? 0))[0];
  const shared = models
    .map(({ model }) => model.capabilities)
    .reduce((common, capabilities) => common.filter((capability) => capabilities.includes(capability)));
  const summary = {
    cheapest: priced[0]?.name ?? null,
    largestContext: widest?.model.contextWindow !== undefined ? widest.name : null,
    sharedCapabilities: shared,
  };
  const columns = ['model', 'provider', 'input', 'output', 'average', 'context', 'speed', 'quality', 'capabilities', 'deprecated'];
  context.io.stdout.write(renderList(output, { models: rows, ...summary }, rows, columns));
  if (output === 'table')
    context.io.stdout.write(
      `\ncheapest: ${summary.cheapest ?? 'none priced'}; largest context: ${summary.largestContext ?? 'unknown'}; shared capabilities: ${shared.join(', ') || 'none'}\n`,
    );
}

/** `models stats`: what the registry holds, per provider and per capability. */
async function stats(context: CliContext, format: string | undefined): Promise<void> {
  const output = parseListFormat(format);
  const all = (await context.toolkit()).models.getAllModels();
  const providers = [...new Set(all.map((model) => model.provider))].sort();
  const perProvider = providers.map((provider) => {
    const models = all.filter((model) => model.provider === provider).sort(byPrice);
    const prices = models.map(averagePrice).filter((price): price is number => price !== undefined);
    return {
      provider,
      models: models.length,
      deprecated: models.filter((model) => model.deprecated).length,
      cheapest: prices.length > 0 ? models[0]?.key : undefined,
      minPrice: usd(prices.length > 0 ? Math.min(...prices) : undefined),
      maxPrice: usd(prices.length > 0 ? Math.max(...prices) : undefined),
      maxContext: Math.max(0, ...models.map((model) => model.contextWindow ?? 0)) || undefined,
    };
  });
  const capabilities: Record<string, number> = {};
  for (const model of all) for (const capability of model.capabilities) capabilities[capability] = (capabilities[capability] ?? 0) + 1;
  const sortedCapabilities = Object.fromEntries(Object.entries(capabilities).sort(([a, x], [b, y]) => y - x || a.localeCompare(b)));
  const aliases = new Set(all.flatMap((model) => model.aliases)).size;
  const totals = { models: all.length, providers: providers.length, deprecated: all.filter((model) => model.deprecated).length, aliases };
  const columns = ['provider', 'models', 'deprecated', 'cheapest', 'minPrice', 'maxPrice', 'maxContext'];
  context.io.stdout.write(renderList(output, { ...totals, capabilities: sortedCapabilities, perProvider }, perProvider, columns));
  if (output === 'table')
    context.io.stdout.write(
      `\n${totals.models} models from ${totals.providers} providers (${totals.deprecated} deprecated), ${aliases} aliases; prices: USD per 1K tokens (average of input and output)\ncapabilities: ${Object.entries(
        sortedCapabilities,
      )
        .map(([capability, count]) => `${capability} ${count}`)
        .join(', ')}\n`,
    );
}

/** Adds `compare` and `stats` under `models`. */
export function registerModelInsightCommands(models: Command, context: CliContext): void {
  models
    .command('compare')
    .argument('<models...>', 'two or more model ids, keys or aliases')
    .description('Models side by side: prices, context window, speed, quality, capabilities; the cheapest and the largest context named')
    .option('-f, --format <format>', 'table, json or yaml', 'table')
    .action((names: string[], flags: { format?: string }) => compare(context, names, flags.format));
  models
    .command('stats')
    .description('What the registry holds: models, deprecated ones and price range per provider, models per capability, aliases')
    .option('-f, --format <format>', 'table, json or yaml', 'table')
    .action((flags: { format?: string }) => stats(context, flags.format));
}
