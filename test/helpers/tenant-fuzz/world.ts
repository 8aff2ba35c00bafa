import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InjectOptions } from 'fastify';
import { createChdbAnalyticsStore } from '../../../src/adapters/chdb/chdb-analytics-store.js';
import { silentLogger } from '../../../src/logging/logger.js';
import type { AnalyticsStore } from '../../../src/ports/analytics-store.js';
import { createManualClock } from '../../../src/time/clock.js';
import * as analyticsSink from '../../../workers/analytics-sink.js';
import type { WorkerHandle } from '../../../workers/worker-handle.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatCompletionStream, embeddingsResponse } from '../../fixtures/providers/openai-wire.js';
import { createMerchant, createTestApp, signUp, type TestApp } from '../test-app.js';
import { operationsOf, type OpenApiDocument, type Operation } from './operations.js';
import { attackTemplates, canary, seedsFor, type Seed } from './seeds.js';

export interface Tenant {
  readonly merchantId: string;
  readonly apiKey: string;
  /** An admin session of the merchant. */
  readonly session: string;
}

export interface TenantWorld {
  readonly t: TestApp;
  readonly document: OpenApiDocument;
  readonly operations: readonly Operation[];
  readonly a: Tenant;
  /** A's values by pool (ids and names), from its seeds' answers. */
  readonly pools: ReadonlyMap<string, readonly string[]>;
  /** Strings only A's data holds: B seeing one it did not send is a leak. */
  readonly canaries: readonly string[];
  /** The seeds that ran (optional ones of routes the document lacks are skipped). */
  readonly seeded: readonly string[];
  /** A's JSON seed bodies by operation, as sent (placeholders filled): templates of valid requests. */
  readonly seedBodies: ReadonlyMap<string, readonly unknown[]>;
  /** A fresh merchant B with its own key and admin session (one per attack, so attacks do not depend on each other). */
  newAttacker(): Promise<Tenant>;
  close(): Promise<void>;
}

const now = Date.UTC(2026, 5, 1, 12, 0, 0);

/**
 * A fake OpenAI that echoes every message it was sent (as a JSON document): a conversation B
 * should not see (A's memory, A's stored response) comes back in B's answer, where the canary
 * check finds it.
 */
function echoOpenAi(request: RecordedRequest) {
  const body = (request.body ?? {}) as { model?: string; stream?: boolean; input?: unknown; messages?: unknown };
  const model = body.model ?? 'gpt-4o-mini';
  if (request.path.endsWith('/embeddings')) {
    const inputs = Array.isArray(body.input) ? body.input.length : 1;
    return embeddingsResponse({ model, vectors: Array.from({ length: Math.max(1, inputs) }, () => [0.1, 0.2, 0.3]), promptTokens: 3 });
  }
  // A JSON document, so a call asking for JSON output gets one (as a real model would).
  const echo = JSON.stringify({ echo: body.messages ?? [] });
  return body.stream === true ? chatCompletionStream({ model, deltas: [echo] }) : chatCompletion({ model, content: echo });
}

/** `{{pool}}` placeholders in a seed, filled with the pool's first value. */
function fill<T>(value: T, pools: ReadonlyMap<string, string[]>): T {
  return JSON.parse(
    JSON.stringify(value).replace(/\{\{([a-z_]+)\}\}/g, (_match, pool: string) => {
      const first = pools.get(pool)?.[0];
      if (first === undefined) throw new Error(`seed placeholder {{${pool}}} has no value yet`);
      return first;
    }),
  ) as T;
}

export function pathOf(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for path parameter {${name}} of ${template}`);
    return encodeURIComponent(value);
  });
}

async function runSeed(t: TestApp, a: Tenant, operation: Operation, seed: Seed, pools: Map<string, string[]>): Promise<void> {
  const raw = seed.raw;
  const request: InjectOptions = {
    method: operation.method as InjectOptions['method'],
    url: pathOf(operation.path, fill(seed.params ?? {}, pools)),
    query: fill(seed.query ?? {}, pools),
    headers: {
      ...(seed.as === 'session' ? { authorization: `Bearer ${a.session}` } : { 'x-api-key': a.apiKey }),
      ...(raw !== undefined ? { 'content-type': raw.contentType } : {}),
    },
    ...(raw !== undefined ? { payload: raw.payload } : seed.body !== undefined ? { payload: fill(seed.body, pools) as InjectOptions['payload'] } : {}),
  };
  const response = await t.app.inject(request);
  if (response.statusCode < 200 || response.statusCode > 299) {
    throw new Error(`seed ${seed.op} as merchant A answered ${response.statusCode}: ${response.body.slice(0, 500)}`);
  }
  const answer = response.body === '' ? {} : (JSON.parse(response.body) as Record<string, unknown>);
  for (const [pool, value] of Object.entries({ ...seed.names, ...seed.harvest?.(answer) })) {
    if (value === undefined) throw new Error(`seed ${seed.op}: the answer has no value for pool ${pool}: ${response.body.slice(0, 300)}`);
    const values = pools.get(pool) ?? [];
    for (const one of typeof value === 'string' ? [value] : value) if (!values.includes(one)) values.push(one);
    pools.set(pool, values);
  }
}

/** The app (embedded adapters, chDB analytics, an echoing fake OpenAI), merchant A with its resources. */
export async function createTenantWorld(): Promise<TenantWorld> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sytest-tenant-fuzz-'));
  const provider: FakeHttpServer = await startFakeHttpServer(echoOpenAi);
  const store: AnalyticsStore = createChdbAnalyticsStore({ path: dataDir, database: 'switchyard_analytics' });
  await store.migrate();
  const t = await createTestApp({
    clock: createManualClock(now),
    analytics: store,
    // Merchant MCP servers on loopback (a closed port: registering needs no live server).
    env: { MCP_ALLOW_PRIVATE_ENDPOINTS: '127.0.0.0/8' },
    toolkitEnv: { OPENAI_API_KEY: 'sk-tenant-fuzz', OPENAI_BASE_URL: `${provider.url}/v1` },
  });
  const sink: WorkerHandle = await analyticsSink.start({ bus: t.bus, analytics: store, logger: silentLogger, retentionDays: 30, clock: t.clock, lingerMs: 0 });
  const close = async () => {
    await sink.close();
    await t.close();
    await store.close();
    await provider.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as OpenApiDocument;
    const operations = operationsOf(document);
    let attackers = 0;
    const tenant = async (merchantId: string, email: string): Promise<Tenant> => {
      const { apiKey } = await createMerchant(t.app, merchantId);
      const { token } = await signUp(t.app, email, merchantId);
      return { merchantId, apiKey, session: token };
    };
    const a = await tenant('tenant-a-0f3c', `${canary('owner')}@example.com`);
    const pools = new Map<string, string[]>();
    const seeded: string[] = [];
    const seedBodies = new Map<string, unknown[]>();
    for (const seed of seedsFor(a.merchantId)) {
      const operation = operations.find((candidate) => candidate.key === seed.op);
      if (operation === undefined) {
        if (seed.optional === true) continue;
        throw new Error(`seed ${seed.op} names an operation the OpenAPI document does not have`);
      }
      await runSeed(t, a, operation, seed, pools);
      seeded.push(seed.op);
      if (seed.body !== undefined) seedBodies.set(seed.op, [...(seedBodies.get(seed.op) ?? []), fill(seed.body, pools)]);
    }
    for (const template of attackTemplates(a.merchantId)) {
      if (!operations.some((operation) => operation.key === template.op))
        throw new Error(`attack template ${template.op} names an operation the OpenAPI document does not have`);
      seedBodies.set(template.op, [...(seedBodies.get(template.op) ?? []), fill(template.body, pools)]);
    }
    await t.costJobs.drain();
    await t.eventsCaughtUp();
    await sink.caughtUp();
    const secrets = pools.get('secret') ?? [];
    pools.delete('secret');
    const seedTexts = JSON.stringify(seedsFor(a.merchantId)).match(/canary-a-[a-z0-9-]+/g) ?? [];
    const canaries = [
      'canary-a-',
      ...seedTexts,
      a.merchantId,
      a.apiKey,
      a.session,
      ...secrets,
      ...[...pools.entries()].filter(([pool]) => !['gateway', 'feature', 'connector'].includes(pool)).flatMap(([, values]) => values),
    ];
    return {
      t,
      document,
      operations,
      a,
      pools,
      canaries: [...new Set(canaries)],
      seeded,
      seedBodies,
      newAttacker: () => {
        attackers += 1;
        return tenant(`tenant-b-${attackers}`, `attacker-${attackers}@example.net`);
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
