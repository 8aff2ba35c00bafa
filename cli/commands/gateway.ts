import type { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { RouteGroup as RouteGroupBody } from '../../src/generated/schema-types.js';
import { routeGroupNamePattern, routeGroupProblems, toRouteGroup } from '../../src/generation/gateway/route-group.js';
import { averagePrice } from '../../src/generation/models/model-config.js';
import type { CliContext } from '../cli-context.js';
import type { createRuntime } from '../create-runtime.js';
import { UsageError } from '../exit-codes.js';
import { parseListFormat, renderList, renderRecord } from '../output.js';

/**
 * `gateway groups list|show|set|delete`: a merchant's route groups, on this process's StateStore
 * (Redis with REDIS_URL, else the embedded store under DATA_DIR: stop the service first, or use
 * `PUT /v1/route-groups/{name}`). Validated exactly as the HTTP route validates them.
 */
export function registerGatewayCommands(program: Command, context: CliContext): void {
  const groups = program
    .command('gateway')
    .description('The OpenAI-compatible gateway')
    .command('groups')
    .description("A merchant's route groups (the learning router's candidate sets)");
  const withStore = async <T>(work: (configs: Awaited<ReturnType<typeof createRuntime>>['state']['configs']) => Promise<T>): Promise<T> => {
    // The runtime loads only when a gateway command runs: see program.ts.
    const { createRuntime } = await import('../create-runtime.js');
    const runtime = await createRuntime(context.config, context.quietLogger(), { analytics: false });
    try {
      return await work(runtime.state.configs);
    } finally {
      await runtime.close();
    }
  };
  const merchantOption = (command: Command) =>
    command.requiredOption('--merchant <id>', 'the merchant the groups belong to').option('-f, --format <format>', 'table, json or yaml', 'table');
  const checkName = (name: string) => {
    if (!routeGroupNamePattern.test(name))
      throw new UsageError(`group name "${name}" must start with a letter and hold only letters, digits, . _ - (at most 64)`);
  };

  merchantOption(groups.command('list').description('Every route group of the merchant')).action(async (flags: { merchant: string; format?: string }) => {
    const format = parseListFormat(flags.format);
    const found = (await withStore((configs) => configs.get(flags.merchant, 'llmRouteGroups'))) ?? [];
    const rows = found.map((group) => ({
      name: group.name,
      candidates: group.candidates.map((candidate) => `${candidate.provider}/${candidate.model}`),
      bucketSize: group.bucketSize,
      explorePercent: group.explorePercent,
      maxHops: group.maxHops,
    }));
    context.io.stdout.write(renderList(format, found, rows, ['name', 'candidates', 'bucketSize', 'explorePercent', 'maxHops']));
  });

  merchantOption(groups.command('show').argument('<name>', 'group name').description('One route group')).action(
    async (name: string, flags: { merchant: string; format?: string }) => {
      const format = parseListFormat(flags.format);
      const group = ((await withStore((configs) => configs.get(flags.merchant, 'llmRouteGroups'))) ?? []).find((candidate) => candidate.name === name);
      if (group === undefined) throw new UsageError(`merchant ${flags.merchant} has no route group "${name}"`);
      context.io.stdout.write(renderRecord(format, { ...group }));
    },
  );

  merchantOption(
    groups
      .command('set')
      .argument('<name>', 'group name')
      .argument('<file>', 'the group as JSON (the body of PUT /v1/route-groups/{name})')
      .description('Create or replace a route group'),
  ).action(async (name: string, file: string, flags: { merchant: string; format?: string }) => {
    const format = parseListFormat(flags.format);
    checkName(name);
    let body: RouteGroupBody;
    try {
      body = JSON.parse(await readFile(resolve(context.io.cwd, file), 'utf8')) as RouteGroupBody;
    } catch (error) {
      throw new UsageError(`${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (typeof body !== 'object' || body === null || !Array.isArray(body.candidates) || (body.candidates as readonly unknown[]).length === 0)
      throw new UsageError(`${file}: needs "candidates": [{ "provider", "model" }, …]`);
    const { models } = await context.toolkit();
    const problems = routeGroupProblems(body, (provider, model) => {
      const found = models.getModelConfig(model, provider);
      return found === undefined ? undefined : { capabilities: found.capabilities, averagePrice: averagePrice(found) };
    });
    if (problems.length > 0) throw new UsageError(`invalid route group: ${problems.join('; ')}`);
    const group = toRouteGroup(name, body);
    await withStore(async (configs) => {
      const others = ((await configs.get(flags.merchant, 'llmRouteGroups')) ?? []).filter((existing) => existing.name !== name);
      await configs.put(flags.merchant, 'llmRouteGroups', [...others, group], 'upsert');
    });
    context.io.stdout.write(renderRecord(format, { ...group }));
  });

  merchantOption(groups.command('delete').argument('<name>', 'group name').description('Delete a route group')).action(
    async (name: string, flags: { merchant: string }) => {
      const deleted = await withStore(async (configs) => {
        const all = (await configs.get(flags.merchant, 'llmRouteGroups')) ?? [];
        if (!all.some((group) => group.name === name)) return false;
        await configs.put(
          flags.merchant,
          'llmRouteGroups',
          all.filter((group) => group.name !== name),
          'upsert',
        );
        return true;
      });
      if (!deleted) throw new UsageError(`merchant ${flags.merchant} has no route group "${name}"`);
      context.io.stdout.write(`deleted route group "${name}" of ${flags.merchant}\n`);
    },
  );
}
