import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

/*
 * A column mapping's `sample` that is not CSV is the caller's mistake: 400 with the line and what
 * is wrong, and nothing saved. Found by the two-tenant fuzz (issue 28): a sample of one stray
 * quote (`"`) answered 500.
 */
describe('PUT …/report/column-mapping with a sample that is not CSV', () => {
  let t: TestApp;
  let key: string;
  const url = '/merchant-account/sample-shop/connectors/adyen/report/column-mapping?account=AcmeUS';

  beforeAll(async () => {
    t = await createTestApp();
    key = (await createMerchant(t.app, 'sample-shop')).apiKey;
  }, 60_000);
  afterAll(async () => t.close());

  for (const [what, sample] of [
    ['a quoted field never closed', '"'],
    ['a quote inside an unquoted field', 'Net,Pay"able\n'],
  ] as const) {
    it(`answers 400 for ${what} and saves nothing`, async () => {
      const response = await t.app.inject({ method: 'PUT', url, headers: withKey(key), payload: { columns: { payable: 'Net' }, sample } });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'TE_03',
        message: expect.stringMatching(/^Invalid column mapping: the sample is not CSV \(line 1: .+\)$/),
      });
      expect((await t.app.inject({ method: 'GET', url, headers: withKey(key) })).json()).toEqual({ columns: {} });
    });
  }

  it('still checks the mapping against a well-formed sample', async () => {
    const response = await t.app.inject({ method: 'PUT', url, headers: withKey(key), payload: { columns: { payable: 'Net' }, sample: 'Net,Record Type\n' } });
    expect(response.statusCode, response.body).toBe(204);
  });
});
