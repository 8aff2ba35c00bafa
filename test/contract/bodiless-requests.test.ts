import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteTableEntry } from '../../api/plugins/authentication.js';
import { adminSecret, createMerchant, createTestApp, decideBody, signUp, withKey, withToken, type TestApp } from '../helpers/test-app.js';

/*
 * Clients send `content-type: application/json` with no body on bodiless calls. Generated from the
 * app's route table: every route without a body schema is called the way fetch/undici, axios and
 * curl call it, over real HTTP, and must answer exactly what it answers without the header — never
 * a body complaint. A new route is covered the moment it is registered.
 */

interface Answer {
  readonly status: number;
  readonly body: string;
}

/** A client style: how it sends a bodiless request. */
type Send = (port: number, method: string, path: string, headers: Readonly<Record<string, string>>) => Promise<Answer>;

/** Writes the request bytes as given (no header added or normalised) and reads the whole answer. */
function rawRequest(port: number, head: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
      const [headerText = '', ...rest] = text.split('\r\n\r\n');
      const chunked = /\r\ntransfer-encoding: chunked/i.test(headerText);
      resolve({ status, body: chunked ? dechunk(rest.join('\r\n\r\n')) : rest.join('\r\n\r\n') });
    });
    socket.write(head);
  });
}

function dechunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, lineEnd), 16);
    if (!(size > 0)) return out;
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}

function headLines(method: string, path: string, port: number, headers: Readonly<Record<string, string>>, extra: readonly string[]): string {
  const lines = [
    `${method} ${path} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ...extra,
    'Connection: close',
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

const clients: Readonly<Record<string, Send>> = {
  // The real client: Node's fetch (undici) with the header and no body.
  'fetch/undici (content-type, no body)': async (port, method, path, headers) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers: { 'content-type': 'application/json', ...headers } });
    return { status: response.status, body: await response.text() };
  },
  // What undici puts on the wire for a bodiless POST, byte for byte.
  'undici wire (content-type, content-length: 0)': (port, method, path, headers) =>
    rawRequest(port, headLines(method, path, port, headers, ['content-type: application/json', 'content-length: 0'])),
  // axios sets its default JSON content type with a charset even when there is no data.
  'axios (Content-Type: application/json;charset=utf-8, empty)': (port, method, path, headers) =>
    rawRequest(port, headLines(method, path, port, headers, ['Content-Type: application/json;charset=utf-8', 'Content-Length: 0'])),
  // curl -X POST -H 'content-type: application/json' sends no Content-Length at all.
  "curl -H 'content-type: application/json' (no content-length)": (port, method, path, headers) =>
    rawRequest(port, headLines(method, path, port, headers, ['content-type: application/json'])),
};

/** The same call without the header: what the route answers to a truly bodiless request. */
const baseline: Send = (port, method, path, headers) => rawRequest(port, headLines(method, path, port, headers, []));

// The route table of a real app, read once to generate the tests below.
const probe = await createTestApp();
await probe.app.ready();
const allRoutes = [...probe.app.routeTable];
await probe.close();

const keyOf = (route: RouteTableEntry) => `${route.method} ${route.url}`;
/**
 * Routes whose body is not JSON (a streamed text/csv settlement report, a multipart file upload):
 * they refuse a JSON content type by design.
 */
const rawBodyRoutes = new Set(['POST /merchant-account/:merchantId/connectors/:connector/report', 'POST /v1/files']);
/** Query parameters a route requires besides the merchant (the settlement account of a report source). */
const requiredQuery: Readonly<Record<string, string>> = {
  '/merchant-account/:merchantId/connectors/:connector/report/column-mapping': 'account=bodiless',
  '/auth/verify-email': 'token=bodiless',
};
/**
 * Routes whose answer to the sweep's made-up input is a 400 by design, header or not: an unknown
 * one-time token; an MCP gateway request with no `mcp-session-id` that is not an `initialize` (MCP's
 * streamable HTTP transport answers it 400).
 */
const refusesMadeUpInput = new Set(['GET /auth/verify-email', 'POST /mcp', 'GET /mcp', 'DELETE /mcp']);
const bodiless = allRoutes.filter(
  (route) => !route.hasBody && route.method !== 'HEAD' && !route.url.startsWith('/docs') && !rawBodyRoutes.has(`${route.method} ${route.url}`),
);
const withBody = allRoutes.filter((route) => route.hasBody);

let counter = 0;

/** A fresh merchant with a key and an admin session, so no call sees another's side effects. */
async function freshMerchant(t: TestApp): Promise<{ merchantId: string; apiKey: string; token: string }> {
  counter += 1;
  const merchantId = `mbody${counter}`;
  const { apiKey } = await createMerchant(t.app, merchantId);
  const { token } = await signUp(t.app, `bodiless${counter}@example.com`, merchantId);
  return { merchantId, apiKey, token };
}

/** The path and credential headers for `route`, naming `merchantId` wherever the route reads one. */
/** An id no resource has, in the shape the route's id schema takes (a stored response's id is `resp_…`). */
function unknownIdFor(url: string): string {
  return url.startsWith('/v1/responses/') ? 'resp_nosuchresource' : 'no-such-resource';
}

function callOf(route: RouteTableEntry, fresh: { merchantId: string; apiKey: string; token: string }): { path: string; headers: Record<string, string> } {
  const from = route.merchantFrom;
  const path = route.url.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) =>
    typeof from === 'object' && 'params' in from && from.params === name ? encodeURIComponent(fresh.merchantId) : unknownIdFor(route.url),
  );
  const query = typeof from === 'object' && 'query' in from ? `?${from.query}=${encodeURIComponent(fresh.merchantId)}` : '';
  const headers: Record<string, string> = { 'x-tenant-id': 'public' };
  if (route.auth === 'bearer') Object.assign(headers, withToken(fresh.token));
  else if (route.auth === 'admin-secret') headers['x-admin-secret'] = adminSecret;
  else if (route.auth !== 'none') Object.assign(headers, withKey(fresh.apiKey));
  const required = requiredQuery[route.url];
  const fullQuery = required === undefined ? query : query === '' ? `?${required}` : `${query}&${required}`;
  return { path: `${path}${fullQuery}`, headers };
}

describe('bodiless requests with a JSON content type', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => t.close());

  it('finds the bodiless routes clients call with the header', () => {
    const keys = bodiless.map(keyOf);
    for (const key of ['DELETE /api-key/:key_id', 'DELETE /merchant-account/:merchantId', 'POST /auth/logout']) expect(keys).toContain(key);
  });

  for (const route of bodiless) {
    for (const [client, send] of Object.entries(clients)) {
      it(`${keyOf(route)} answers ${client} as it answers no header at all`, async () => {
        const plain = callOf(route, await freshMerchant(t));
        const expected = await baseline(port, route.method, plain.path, plain.headers);
        const call = callOf(route, await freshMerchant(t));
        const answer = await send(port, route.method, call.path, call.headers);
        if (!refusesMadeUpInput.has(keyOf(route))) expect([400, 415, 422], `${answer.status} ${answer.body}`).not.toContain(answer.status);
        expect(answer.body).not.toMatch(/Body cannot be empty|Content-Type|parse the request body/i);
        expect(answer.status, answer.body).toBe(expected.status);
      });
    }
  }

  it('logs out with the header and an empty body (fetch)', async () => {
    const fresh = await freshMerchant(t);
    const response = await fetch(`http://127.0.0.1:${port}/auth/logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...withToken(fresh.token) },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: 'Logged out successfully' });
  });

  it('deletes a merchant and revokes a key with the header and an empty body (fetch)', async () => {
    const fresh = await freshMerchant(t);
    const created = (
      await t.app.inject({ method: 'POST', url: '/api-key/create', headers: withKey(fresh.apiKey), payload: { merchant_id: fresh.merchantId } })
    ).json() as { key_id: string };
    const revoked = await fetch(`http://127.0.0.1:${port}/api-key/${created.key_id}`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json', ...withKey(fresh.apiKey) },
    });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({ key_id: created.key_id, message: 'API key revoked successfully' });
    const deleted = await fetch(`http://127.0.0.1:${port}/merchant-account/${fresh.merchantId}`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json', ...withKey(fresh.apiKey) },
    });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ message: 'Merchant account deleted successfully', merchant_id: fresh.merchantId });
  });

  // POST /analytics/counterfactual takes an empty body as `{}` (every field is optional; issue 37):
  // its empty body gets the very answer `{}` gets.
  const emptyMeansObject = new Set(['POST /analytics/counterfactual']);
  it('POST /analytics/counterfactual answers an empty JSON body as it answers {}', async () => {
    const { token } = await freshMerchant(t);
    const headers = { authorization: `Bearer ${token}` };
    const empty = await clients['undici wire (content-type, content-length: 0)']!(port, 'POST', '/analytics/counterfactual', headers);
    const object = await fetch(`http://127.0.0.1:${port}/analytics/counterfactual`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(empty.status).toBe(object.status);
    expect(empty.body).toBe(await object.text());
  });

  // A route that requires a body still refuses an empty one with its usual validation error.
  for (const route of withBody.filter((candidate) => !emptyMeansObject.has(keyOf(candidate)))) {
    it(`${keyOf(route)} still refuses an empty JSON body with its validation error`, async () => {
      const call = callOf(route, await freshMerchant(t));
      const answer = await clients['undici wire (content-type, content-length: 0)']!(port, route.method, call.path, call.headers);
      if (route.url.startsWith('/v1/')) {
        // The OpenAI-compatible gateway answers OpenAI's error shape.
        expect(answer.status, answer.body).toBe(400);
        expect(JSON.parse(answer.body)).toMatchObject({ error: { type: 'invalid_request_error', message: expect.stringContaining('Invalid request') } });
      } else if (answer.status === 400) {
        // The decision routes answer the decider envelope (§2.5; /decision_gateway says "… payload").
        expect(JSON.parse(answer.body)).toMatchObject({
          error_code: '400',
          error_message: expect.stringMatching(/^Error parsing request( payload)?$/),
          error_info: { code: 'INVALID_INPUT' },
        });
      } else {
        expect(answer.status, answer.body).toBe(422);
        // The peer's routes answer its plain text; routes of our own (`bodyErrors: 'json'`) the same words in the JSON envelope.
        const message = answer.body.startsWith('{') ? (JSON.parse(answer.body) as { message?: unknown }).message : answer.body;
        expect(message).toMatch(/^Failed to deserialize the JSON body into the target type: /);
      }
    });
  }

  // Every route that takes a JSON body refuses a body that is not JSON in a JSON envelope: the
  // payment routes' {code,message,data} (1.4.x's messages), the decision routes' decider envelope,
  // the gateway's OpenAI or Anthropic error; never text/plain.
  const notJson: readonly (readonly [string, string, string, readonly number[]])[] = [
    ['malformed JSON', 'application/json', '{"merchant_id":', [400]],
    ['a text/plain body', 'text/plain', 'merchant_id=x', [400, 415]],
  ];
  for (const route of withBody) {
    for (const [what, contentType, payload, statuses] of notJson) {
      it(`${keyOf(route)} refuses ${what} in its JSON envelope`, async () => {
        const call = callOf(route, await freshMerchant(t));
        const answer = await t.app.inject({
          method: route.method as 'POST',
          url: call.path,
          headers: { ...call.headers, 'content-type': contentType },
          payload,
        });
        expect(statuses, `${answer.statusCode} ${answer.body}`).toContain(answer.statusCode);
        expect(answer.headers['content-type'], answer.body).toMatch(/^application\/json/);
        const body = answer.json() as Record<string, unknown>;
        if ('code' in body && 'data' in body) {
          expect(body).toEqual({
            code: 'TE_03',
            message:
              answer.statusCode === 415
                ? 'Expected request with `Content-Type: application/json`'
                : expect.stringMatching(/^Failed to parse the request body as JSON: /),
            data: null,
          });
        } else {
          expect(Object.keys(body), answer.body).toEqual(expect.arrayContaining([expect.stringMatching(/^(error|error_code|type)$/)]));
        }
      });
    }
  }

  it('answers 415 for a non-JSON content type and 400 for malformed JSON (the column mapping of a settlement source)', async () => {
    const fresh = await freshMerchant(t);
    const url = `/merchant-account/${fresh.merchantId}/connectors/adyen/report/column-mapping?account=A`;
    const headers = withKey(fresh.apiKey);
    const malformed = await t.app.inject({ method: 'PUT', url, headers: { ...headers, 'content-type': 'application/json' }, payload: 'columns=1' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'TE_03', message: expect.stringMatching(/^Failed to parse the request body as JSON: /), data: null });
    const asText = await t.app.inject({ method: 'PUT', url, headers: { ...headers, 'content-type': 'text/plain' }, payload: 'x' });
    expect(asText.statusCode).toBe(415);
    expect(asText.json()).toEqual({ code: 'TE_03', message: 'Expected request with `Content-Type: application/json`', data: null });
    const poisoned = await t.app.inject({
      method: 'POST',
      url: '/api-key/create',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: `{"merchant_id":"${fresh.merchantId}","__proto__":{"x":1}}`,
    });
    expect(poisoned.statusCode).toBe(400);
    expect(poisoned.json()).toMatchObject({ code: 'TE_03' });
  });

  it('keeps the decision routes reading bodies whatever the content type says', async () => {
    const fresh = await freshMerchant(t);
    const response = await t.app.inject({
      method: 'POST',
      url: '/decide-gateway',
      headers: { ...withKey(fresh.apiKey), 'content-type': 'text/plain' },
      payload: JSON.stringify(decideBody(fresh.merchantId, 'p-body')),
    });
    expect(response.statusCode, response.body).toBe(200);
    const broken = await t.app.inject({
      method: 'POST',
      url: '/decide-gateway',
      headers: { ...withKey(fresh.apiKey), 'content-type': 'text/plain' },
      payload: '{',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ error_code: '400' });
  });
});
