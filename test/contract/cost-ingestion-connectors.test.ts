import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * The connectors added to the cost-ingestion registry at the peer's line (braintree, chase,
 * checkout), end to end over HTTP: an upload in the connector's own report format is validated,
 * stored and fitted in the background, and a merchant's saved column mapping renames a column.
 */
const csv = { 'content-type': 'text/csv' };

/** `payments` Checkout.com payments of `gross` GBP, each over a capture row and three fee rows, plus a refund. */
function checkoutReport(payments: number): string {
  const header =
    'Payment ID,Action Type,Breakdown Type,Payment Method,Card Type,Card Category,Issuer Country,Holding Currency,Holding Currency Amount,Processed On';
  const lines = [header];
  for (let i = 0; i < payments; i++) {
    const gross = 20 + i * 5;
    const at = `2026-07-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00.000`;
    lines.push(`pay_${i},Capture,Capture,VISA,Credit,Consumer,GB,GBP,${gross.toFixed(2)},${at}`);
    lines.push(`pay_${i},Capture,Interchange Fixed Fee,VISA,Credit,Consumer,GB,GBP,-${(gross * 0.003).toFixed(4)},${at}`);
    lines.push(`pay_${i},Capture,Scheme Variable Fee,VISA,Credit,Consumer,GB,GBP,-${(gross * 0.001).toFixed(4)},${at}`);
    lines.push(`pay_${i},Capture,Premium Fixed Fee,VISA,Credit,Consumer,GB,GBP,-0.10,${at}`);
    lines.push(`pay_${i},Refund,Refund,VISA,Credit,Consumer,GB,GBP,-1.00,${at}`);
  }
  return `${lines.join('\n')}\n`;
}

describe('cost ingestion of braintree, chase and checkout reports', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp();
    key = (await createMerchant(t.app, 'cost-connectors')).apiKey;
  }, 60_000);
  afterAll(async () => t.close());

  const upload = (connector: string, body: string, account = 'main') =>
    t.app.inject({
      method: 'POST',
      url: `/merchant-account/cost-connectors/connectors/${connector}/report?account=${account}`,
      headers: { ...withKey(key), ...csv },
      payload: body,
    });
  const latest = async () => {
    const response = await t.app.inject({ method: 'GET', url: '/merchant-account/cost-connectors/cost-ingestions', headers: withKey(key) });
    return (response.json() as Record<string, unknown>[])[0];
  };

  it('imports a Checkout.com report as one fee row per captured payment', async () => {
    const accepted = await upload('checkout', checkoutReport(40));
    expect(accepted.statusCode, accepted.body).toBe(202);
    await t.costJobs.drain();
    expect(await latest()).toMatchObject({
      status: 'completed',
      staged_rows: 40,
      last_error: null,
      currencies: ['GBP'],
      countries: ['GB'],
      period_start: '2026-07-01',
    });
    const rows = t.costRows.rows!('cost-connectors');
    expect(rows).toHaveLength(40);
    const first = rows.find((row) => row.txnRef === 'pay_0');
    expect(first).toMatchObject({ connector: 'checkout', cardNetwork: 'visa', variant: 'visacredit', icCategory: 'consumer', gross: 20, line: 2 });
    expect(first?.totalFee).toBeCloseTo(20 * 0.004 + 0.1, 9);
    const clusters = await t.app.inject({ method: 'GET', url: '/merchant-account/cost-connectors/cost-clusters', headers: withKey(key) });
    expect(clusters.statusCode).toBe(200);
    expect(JSON.stringify(clusters.json())).toContain('checkout');
  });

  it('imports a framed J.P. Morgan Deposit Details report', async () => {
    const header =
      'Submission Date,Merchant Order Number,Payment Method Code,Card Usage Type,Country of Issuance,Settlement Currency Code,Interchange Qualification Code,Action Type Code Text,Transaction Amount in Presentment Currency,Total Interchange Amount,Total Assessment Amount';
    const rows = Array.from({ length: 12 }, (_, i) => `3/${1 + i}/2025,o${i},VI,3,US,USD,V148,SALE,${100 + i},-${(2 + i * 0.01).toFixed(2)},-0.10`);
    const report = [
      '\uFEFFBEGIN,EntityId=1,Frequency=adhoc',
      'EntityId=1,ReportTypeName=SubmissionDetails',
      header,
      ...rows,
      '3/2/2025,o-r,VI,3,US,USD,V148,REFUND,-5,0,0',
      'END,EntityId=1,Frequency=adhoc',
      '',
    ].join('\n');
    expect((await upload('chase', report)).statusCode).toBe(202);
    await t.costJobs.drain();
    expect(await latest()).toMatchObject({ status: 'completed', staged_rows: 12, currencies: ['USD'], period_start: '2025-03-01', period_end: '2025-03-12' });
  });

  it('reads a Braintree report through the merchant’s saved column mapping', async () => {
    const mapping = await t.app.inject({
      method: 'PUT',
      url: '/merchant-account/cost-connectors/connectors/braintree/report/column-mapping?account=bt',
      headers: withKey(key),
      payload: { columns: { txn_ref: 'Txn' } },
    });
    expect(mapping.statusCode, mapping.body).toBe(204);
    const header =
      'Txn,Transaction Type,Settlement Currency,Settlement Amount,Card Brand,Card Type,Payment Instrument,Interchange Total Amount,Total Scheme Fees,Braintree Total Amount';
    const rows = Array.from({ length: 5 }, (_, i) => `bt${i},sale,USD,${50 + i},Visa,credit,credit_card,0.5,0.05,0.3`);
    expect((await upload('braintree', [header, ...rows, 'bt-c,credit,USD,-10,Visa,credit,credit_card,0,0,0', ''].join('\n'), 'bt')).statusCode).toBe(202);
    await t.costJobs.drain();
    expect(await latest()).toMatchObject({ status: 'completed', staged_rows: 5, last_error: null });
    // Without the mapping, the connector's own label is required and missing: nothing imported.
    expect((await upload('braintree', [header, ...rows, ''].join('\n'), 'other')).statusCode).toBe(202);
    await t.costJobs.drain();
    expect(await latest()).toMatchObject({ status: 'failed', staged_rows: 0 });
    expect(String((await latest())?.['last_error'])).toContain("'Transaction ID'");
  });
});
