import fc from 'fast-check';
import { attackArbitrary, execute } from './attack.js';
import { showsAttemptsOnA } from './cross-merchant-readable.js';
import { catalogValues, kindOf, namespacedPools, referencePools, type Operation } from './operations.js';
import { schemaArbitrary } from './schema-arbitrary.js';
import { pathOf, type TenantWorld } from './world.js';

/** What a run did, per operation: attacks, statuses seen, isolation failures, server errors. */
export interface OperationStats {
  attacks: number;
  statuses: Record<string, number>;
  twoHundredsForB: number;
  /** 5xx answers but the documented 503/504 of the generation routes (those show in `statuses`). */
  serverErrors: number;
  failures: number;
  /** Refusals that named A as the owner of the id B sent (reported, not failed). */
  ownerNamed: number;
}

export type FuzzStats = Map<string, OperationStats>;

/** The operation's own seed: the run's seed mixed with its key (FNV-1a), so adding a route moves no other's. */
export function operationSeed(seed: number, key: string): number {
  let hash = 0x811c9dc5;
  for (const char of key) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return (seed ^ hash) | 0;
}

/**
 * Runs `numRuns` attacks of B on A's resources through one operation (fast-check, seeded).
 * Throws fast-check's report on the first failing attack, shrunk, with the seed and path that
 * replay it and the request and answer.
 */
export async function fuzzOperation(world: TenantWorld, operation: Operation, options: { seed: number; numRuns: number; stats: FuzzStats }): Promise<void> {
  const stats = options.stats.get(operation.key) ?? { attacks: 0, statuses: {}, twoHundredsForB: 0, serverErrors: 0, failures: 0, ownerNamed: 0 };
  options.stats.set(operation.key, stats);
  await fc.assert(
    fc.asyncProperty(attackArbitrary(world, operation), async (attack) => {
      const outcome = await execute(world, operation, attack);
      stats.attacks += 1;
      stats.statuses[outcome.status] = (stats.statuses[outcome.status] ?? 0) + 1;
      if (outcome.status >= 500 && outcome.failure !== undefined) stats.serverErrors += 1;
      if (outcome.ownerNamed) stats.ownerNamed += 1;
      if (outcome.failure !== undefined) {
        stats.failures += 1;
        if (outcome.status >= 200 && outcome.status < 300) stats.twoHundredsForB += 1;
        throw new Error(outcome.describe());
      }
    }),
    { seed: operationSeed(options.seed, operation.key), numRuns: options.numRuns, includeErrorInReport: true },
  );
}

/** A's own GET of an operation, the first of A's values in every slot; undefined for public ones. */
function ownRequest(world: TenantWorld, operation: Operation): { url: string; query: Record<string, string>; headers: Record<string, string> } | undefined {
  if (operation.method !== 'GET' || operation.security === 'none') return undefined;
  const first = (name: string, where: 'path' | 'query'): string | undefined => {
    const kind = kindOf(name, where);
    if (kind === 'merchant') return world.a.merchantId;
    if (kind === 'catalog') return catalogValues[name]![0];
    const pools = kind === 'reference' ? (referencePools[name] ?? []) : kind === 'namespaced' ? namespacedPools[name]! : [];
    return pools.flatMap((pool) => world.pools.get(pool) ?? [])[0];
  };
  const path: Record<string, string> = {};
  const query: Record<string, string> = {};
  for (const parameter of operation.parameters) {
    const value = first(parameter.name, parameter.in === 'path' ? 'path' : 'query');
    if (parameter.in === 'path') {
      if (value === undefined) return undefined;
      path[parameter.name] = value;
    } else if (parameter.in === 'query' && parameter.required) {
      query[parameter.name] =
        value ?? String(fc.sample(schemaArbitrary(parameter.schema, { components: world.document.components.schemas }), { seed: 1, numRuns: 1 })[0]);
    }
  }
  const headers: Record<string, string> = operation.security === 'session' ? { authorization: `Bearer ${world.a.session}` } : { 'x-api-key': world.a.apiKey };
  return { url: pathOf(operation.path, path), query, headers };
}

/** The answer without the wall clock's readings (ISO times, `created` seconds, probe latencies). */
function masked(body: string): string {
  return body
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>')
    .replace(/"(created|responseTime|uptimeSeconds|uptime)":\d+(\.\d+)?/g, '"$1":0');
}

/** What A reads of its own through every GET of the document: status and body per operation. */
export async function snapshotOfA(world: TenantWorld): Promise<Map<string, string>> {
  const snapshot = new Map<string, string>();
  for (const operation of world.operations) {
    const request = ownRequest(world, operation);
    if (request === undefined) continue;
    const response = await world.t.app.inject({ method: 'GET', ...request });
    snapshot.set(operation.key, `${response.statusCode} ${masked(response.body)}`);
  }
  return snapshot;
}

/** The operations whose answers to A differ between two snapshots (for `stable`: taken with nothing in between). */
export function differences(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): string[] {
  return [...before.keys()].filter((key) => !showsAttemptsOnA.has(key) && before.get(key) !== after.get(key));
}
