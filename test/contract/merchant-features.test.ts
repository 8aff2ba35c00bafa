import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createKeyFor, createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

const allOff = [
  { feature: 'gsm-scoring-filter', enabled: false },
  { feature: 'explore-exploit-srv3', enabled: false },
  { feature: 'ab-test-real-payments', enabled: false },
  { feature: 'multi-objective-routing', enabled: false },
  { feature: 'elimination', enabled: false },
  { feature: 'auto-calibration', enabled: false },
  { feature: 'autopilot', enabled: false },
  { feature: 'volume-contracts', enabled: false },
];

describe('merchant feature flag routes', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let m1: string;
  let merchants = 0;
  // One app for the file (building one is the slow part); each test gets merchants of its own.
  // Building the app is slow on a loaded machine: more than the default hook timeout.
  beforeAll(async () => {
    t = await createTestApp();
  }, 60_000);
  afterAll(async () => t.close());
  beforeEach(async () => {
    merchants += 1;
    m1 = `m${merchants}a`;
    headers = withKey((await createMerchant(t.app, m1)).apiKey);
  }, 60_000);

  it('lists every known flag, all off, for a new merchant', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/merchant-account/${m1}/features`, headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ merchant_id: m1, features: allOff });
  });

  it('toggles one flag and answers the whole list re-read, the others untouched', async () => {
    const on = await t.app.inject({ method: 'POST', url: `/merchant-account/${m1}/features/autopilot`, headers, payload: { enabled: true } });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({
      merchant_id: m1,
      features: allOff.map((entry) => (entry.feature === 'autopilot' ? { ...entry, enabled: true } : entry)),
    });
    // Autopilot and auto-calibration persist independently.
    await t.app.inject({ method: 'POST', url: `/merchant-account/${m1}/features/auto-calibration`, headers, payload: { enabled: true } });
    await t.app.inject({ method: 'POST', url: `/merchant-account/${m1}/features/autopilot`, headers, payload: { enabled: false } });
    const listed = (await t.app.inject({ method: 'GET', url: `/merchant-account/${m1}/features`, headers })).json() as { features: typeof allOff };
    expect(listed.features.filter((entry) => entry.enabled).map((entry) => entry.feature)).toEqual(['auto-calibration']);
    expect(await t.state.configs.get(m1, 'features')).toEqual({ autopilot: false, 'auto-calibration': true });
  });

  it('refuses an unknown feature slug with 400 naming the known ones, and writes nothing', async () => {
    const response = await t.app.inject({ method: 'POST', url: `/merchant-account/${m1}/features/turbo-mode`, headers, payload: { enabled: true } });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(
      "Unknown feature 'turbo-mode'; known features: gsm-scoring-filter, explore-exploit-srv3, ab-test-real-payments, multi-objective-routing, elimination, auto-calibration, autopilot, volume-contracts",
    );
    expect(await t.state.configs.get(m1, 'features')).toBeUndefined();
  });

  it('refuses a body without a boolean enabled with 422', async () => {
    for (const payload of [{}, { enabled: 'yes' }]) {
      const response = await t.app.inject({ method: 'POST', url: `/merchant-account/${m1}/features/autopilot`, headers, payload });
      expect(response.statusCode).toBe(422);
      expect(response.body).toContain('enabled');
    }
  });

  it("refuses another merchant's flags with 403 and answers 404 for a merchant that no longer exists", async () => {
    const other = withKey((await createMerchant(t.app, `${m1}-other`)).apiKey);
    expect((await t.app.inject({ method: 'GET', url: `/merchant-account/${m1}/features`, headers: other })).statusCode).toBe(403);
    const write = await t.app.inject({ method: 'POST', url: `/merchant-account/${m1}/features/autopilot`, headers: other, payload: { enabled: true } });
    expect(write.statusCode).toBe(403);
    expect(await t.state.configs.get(m1, 'features')).toBeUndefined();
    const ghost = withKey(await createKeyFor(t.state, `${m1}-ghost`));
    const missing = await t.app.inject({ method: 'GET', url: `/merchant-account/${m1}-ghost/features`, headers: ghost });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: 'TE_04', message: 'MerchantId not found', data: null });
    expect(
      (await t.app.inject({ method: 'POST', url: `/merchant-account/${m1}-ghost/features/autopilot`, headers: ghost, payload: { enabled: true } })).statusCode,
    ).toBe(404);
  });
});
