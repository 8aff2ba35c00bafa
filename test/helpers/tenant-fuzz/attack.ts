import type { InjectOptions } from 'fastify';
import fc from 'fast-check';
import { crossMerchantReadable, fallsBackOnForeignReference } from './cross-merchant-readable.js';
import { catalogValues, freeFormKeys, kindOf, merchantSlots, namespacedPools, referencePools, type Operation } from './operations.js';
import { schemaArbitrary, type Schema } from './schema-arbitrary.js';
import type { Tenant, TenantWorld } from './world.js';
import { pathOf } from './world.js';

/**
 * One request of merchant B against merchant A's resources:
 * - `names-a`: every merchant slot (path, query, body) names A, every reference is one of A's ids
 *   (and `merchant_id=A` is added to the query where the operation has no slot of its own);
 * - `names-b`: the slots name B itself, the references are still A's ids, the names A's names.
 * B is a fresh merchant per attack; `<B>` in the attack stands for its id.
 */
export interface Attack {
  readonly mode: 'names-a' | 'names-b';
  readonly credential: 'x-api-key' | 'bearer-key' | 'session' | 'none';
  readonly path: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body?: unknown;
}

export const attacker = '<B>';

export interface Outcome {
  readonly status: number;
  /** A refusal naming A as the owner of the id B sent (see `execute`). */
  readonly ownerNamed: boolean;
  /** Why this answer breaks tenant isolation (undefined: it does not). */
  readonly failure: string | undefined;
  readonly describe: () => string;
}

/** A's values for a reference or namespaced name; every A id for an unknown path parameter. */
function valuesFor(world: TenantWorld, name: string, kind: 'reference' | 'namespaced'): readonly string[] {
  const pools = kind === 'reference' ? (referencePools[name] ?? Object.values(referencePools).flat()) : (namespacedPools[name] ?? []);
  return [...new Set(pools.flatMap((pool) => world.pools.get(pool) ?? []))];
}

function mentions(schema: Schema | undefined, names: ReadonlySet<string>, components: Record<string, Schema>, seen = new Set<Schema>()): boolean {
  if (schema === undefined || typeof schema !== 'object' || seen.has(schema)) return false;
  seen.add(schema);
  if (typeof schema.$ref === 'string') return mentions(components[schema.$ref.split('/').at(-1)!], names, components, seen);
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  if (Object.keys(properties).some((name) => names.has(name))) return true;
  const children = [
    ...Object.values(properties),
    schema.items,
    ...((schema.anyOf ?? []) as Schema[]),
    ...((schema.oneOf ?? []) as Schema[]),
    ...((schema.allOf ?? []) as Schema[]),
  ];
  return children.some((child) => mentions(child as Schema | undefined, names, components, seen));
}

/** Whether a request of the operation can name a merchant (a path or query parameter, a body property). */
export function hasMerchantSlot(world: TenantWorld, operation: Operation): boolean {
  return (
    operation.parameters.some((parameter) => merchantSlots.has(parameter.name)) || mentions(operation.body, merchantSlots, world.document.components.schemas)
  );
}

function valueArbitrary(world: TenantWorld, name: string, where: 'path' | 'query' | 'body', merchant: string): fc.Arbitrary<unknown> | undefined {
  const kind = kindOf(name, where);
  if (kind === 'merchant') return fc.constant(merchant);
  if (kind === 'catalog') return fc.constantFrom(...catalogValues[name]!);
  if (kind === 'reference' || kind === 'namespaced') {
    const values = valuesFor(world, name, kind);
    return values.length > 0 ? fc.constantFrom(...values) : undefined;
  }
  return undefined;
}

export function attackArbitrary(world: TenantWorld, operation: Operation): fc.Arbitrary<Attack> {
  const components = world.document.components.schemas;
  const credentials =
    operation.security === 'none'
      ? (['none', 'session', 'x-api-key'] as const)
      : operation.security === 'session'
        ? (['session'] as const)
        : (['x-api-key', 'bearer-key', 'session'] as const);
  const slotless = !hasMerchantSlot(world, operation);
  const forMode = (mode: Attack['mode']) => {
    const merchant = mode === 'names-a' ? world.a.merchantId : attacker;
    const hint = (name: string) => valueArbitrary(world, name, 'body', merchant);
    const path: Record<string, fc.Arbitrary<string>> = {};
    const query: Record<string, fc.Arbitrary<unknown>> = {};
    const requiredQuery: string[] = [];
    for (const parameter of operation.parameters) {
      const value =
        valueArbitrary(world, parameter.name, parameter.in === 'path' ? 'path' : 'query', merchant) ?? schemaArbitrary(parameter.schema, { components });
      if (parameter.in === 'path') path[parameter.name] = value.map(String);
      if (parameter.in === 'query') {
        query[parameter.name] = value;
        if (parameter.required || kindOf(parameter.name, 'query') !== 'free') requiredQuery.push(parameter.name);
      }
    }
    const extraQuery = mode === 'names-a' && slotless ? { merchant_id: world.a.merchantId } : {};
    const generated =
      operation.body === undefined
        ? fc.constant(undefined)
        : schemaArbitrary(operation.body, {
            components,
            hint,
            freeFormKeys,
            alwaysPresent: (name) => kindOf(name, 'body') === 'merchant' || kindOf(name, 'body') === 'reference',
          });
    // Beside the schema's random bodies, A's own seed requests for the operation, re-aimed: the
    // merchant slots name `merchant`, A's ids and names stay, A's free text becomes B's. These get
    // past the handlers' own checks, where a random body mostly meets a 400.
    const templates = world.seedBodies.get(operation.key) ?? [];
    const body = templates.length === 0 ? generated : fc.oneof(generated, fc.constantFrom(...templates.map((template) => reaimed(world, template, merchant))));
    return fc.record({
      mode: fc.constant(mode),
      credential: fc.constantFrom(...credentials),
      path: fc.record(path),
      query: fc.record(query, { requiredKeys: requiredQuery }).map((generated) => ({ ...generated, ...extraQuery })),
      body,
    });
  };
  return fc.oneof(forMode('names-a'), forMode('names-b')) as fc.Arbitrary<Attack>;
}

/** A's seed body with its merchant slots naming `merchant` and A's free text (not its ids or names) replaced. */
function reaimed(world: TenantWorld, body: unknown, merchant: string): unknown {
  const kept = new Set([...world.pools.values()].flat());
  const walk = (node: unknown, key?: string): unknown => {
    if (key !== undefined && merchantSlots.has(key)) return merchant;
    if (Array.isArray(node)) return node.map((item) => walk(item));
    if (typeof node === 'object' && node !== null) return Object.fromEntries(Object.entries(node).map(([name, value]) => [name, walk(value, name)]));
    if (typeof node === 'string' && node.includes('canary-a-') && !kept.has(node)) return node.replaceAll('canary-a-', 'attacker-b-');
    return node;
  };
  return walk(body);
}

function substitute<T>(value: T, merchantId: string): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value).replaceAll(JSON.stringify(attacker).slice(1, -1), merchantId)) as T);
}

function headersFor(credential: Attack['credential'], b: Tenant): Record<string, string> {
  if (credential === 'x-api-key') return { 'x-api-key': b.apiKey };
  if (credential === 'bearer-key') return { authorization: `Bearer ${b.apiKey}` };
  if (credential === 'session') return { authorization: `Bearer ${b.session}` };
  return {};
}

/** Whether the request carries one of A's ids where a reference goes (path, query or body). */
function carriesReference(world: TenantWorld, operation: Operation, attack: Attack): boolean {
  if (operation.parameters.some((parameter) => parameter.in === 'path' && kindOf(parameter.name, 'path') === 'reference')) return true;
  const ids = new Set(Object.keys(referencePools).flatMap((name) => valuesFor(world, name, 'reference')));
  if (Object.entries(attack.query).some(([name, value]) => kindOf(name, 'query') === 'reference' && ids.has(String(value)))) return true;
  let found = false;
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (typeof node === 'object' && node !== null) {
      for (const [name, value] of Object.entries(node)) {
        if (kindOf(name, 'body') === 'reference' && typeof value === 'string' && ids.has(value)) found = true;
        walk(value);
      }
    }
  };
  walk(attack.body);
  return found;
}

/** 5xx statuses the operation documents as not the service's fault (no provider configured: 503; the caller's own timeout: 504). */
function documentedUnavailable(world: TenantWorld, operation: Operation, status: number): boolean {
  if (status !== 503 && status !== 504) return false;
  const raw = world.document.paths[operation.path]?.[operation.method.toLowerCase()] as { responses?: Record<string, unknown> } | undefined;
  return raw?.responses?.[String(status)] !== undefined;
}

export async function execute(world: TenantWorld, operation: Operation, attack: Attack): Promise<Outcome> {
  const b = await world.newAttacker();
  const path = substitute(attack.path, b.merchantId);
  const query = Object.fromEntries(
    Object.entries(substitute(attack.query, b.merchantId)).map(([name, value]) => [name, typeof value === 'string' ? value : JSON.stringify(value)]),
  );
  const body = substitute(attack.body, b.merchantId);
  const request: InjectOptions = {
    method: operation.method as InjectOptions['method'],
    url: pathOf(operation.path, path),
    query,
    headers: headersFor(attack.credential, b),
    // B's own address: its failed admin-secret and login attempts throttle B, not the harness creating tenants.
    remoteAddress: '192.0.2.66',
    ...(body !== undefined ? { payload: body as InjectOptions['payload'] } : {}),
  };
  const response = await world.t.app.inject(request);
  const status = response.statusCode;
  const sent = `${request.url} ${JSON.stringify(query)} ${JSON.stringify(body ?? null)}`;
  const ok = status >= 200 && status < 300;
  const shown = world.canaries.filter((text) => response.body.includes(text) && !sent.includes(text));
  // A refusal naming A's merchant id is counted (ownerNamed) and fails: a route that looks a
  // resource up by id answers another merchant's id as an unknown one (404), so nothing names A.
  // Anything else of A's, or A's id in a 2xx, fails too.
  const ownerNamed = !ok && shown.length === 1 && shown[0] === world.a.merchantId;
  const leaked = shown;
  let failure: string | undefined;
  if (status >= 500 && !documentedUnavailable(world, operation, status)) failure = `server error ${status}`;
  else if (leaked.length > 0) failure = `merchant A's data in B's answer: ${leaked.map((text) => JSON.stringify(text)).join(', ')}`;
  else if (ok && attack.mode === 'names-a' && !crossMerchantReadable.has(operation.key)) failure = `B got ${status} on a request naming merchant A`;
  else if (ok && !fallsBackOnForeignReference.has(operation.key) && carriesReference(world, operation, attack))
    failure = `B got ${status} on a request carrying one of A's ids`;
  return {
    status,
    ownerNamed,
    failure,
    describe: () =>
      [
        `${failure ?? 'ok'}`,
        `  ${operation.method} ${request.url}?${new URLSearchParams(query).toString()} as ${b.merchantId} (${attack.credential}, ${attack.mode})`,
        `  body: ${JSON.stringify(body ?? null).slice(0, 600)}`,
        `  answer ${status}: ${response.body.slice(0, 600)}`,
      ].join('\n'),
  };
}
