import { describe, expect, it } from 'vitest';
import { readSettlementReport } from '../../../../src/costs/ingestion/read-settlement-report.js';
import { settlementFormats } from '../../../../src/costs/ingestion/settlement-formats.js';
import type { SettledFee } from '../../../../src/costs/ingestion/settlement-row.js';

/**
 * The braintree, chase and checkout settlement reports read as decision-engine's connectors read
 * them (src/cost_ingestion/connectors/*.rs): the reports below are the peer's own test reports.
 */

async function read(connector: string, text: string | Uint8Array, mapping: Record<string, string> = {}) {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  const source = (async function* () {
    yield bytes;
  })();
  const rows: { line: number; kind: string; fee?: SettledFee; reason?: string }[] = [];
  for await (const { line, verdict } of readSettlementReport(settlementFormats.get(connector)!, mapping, source)) {
    rows.push({
      line,
      kind: verdict.kind,
      ...(verdict.kind === 'fee' ? { fee: verdict.fee } : {}),
      ...(verdict.kind === 'invalid' ? { reason: verdict.reason } : {}),
    });
  }
  return rows;
}
const fees = async (connector: string, text: string | Uint8Array) => (await read(connector, text)).flatMap((row) => (row.fee === undefined ? [] : [row.fee]));

describe('the connector registry', () => {
  it('lists every connector whose report the peer ingests, in id order', () => {
    expect([...settlementFormats.keys()]).toEqual(['adyen', 'braintree', 'chase', 'checkout', 'stripe']);
  });
});

describe('the braintree report format', () => {
  const report = `Transaction ID,Transaction Type,Settlement Currency,Settlement Amount,Card Brand,Card Type,Payment Instrument,Interchange Description,Interchange Total Amount,Total Scheme Fees,Braintree Total Amount,Total Fee Amount,Card Issuing Country,Settlement Date,Payment Network
9celsl42,sale,USD,72.5,MasterCard,debit,credit_card,MC-REGULATED COMM (DB),0.26,0.0395,0.08,0.3795,USA,2/2/20,
r2,credit,USD,-10.00,Visa,credit,credit_card,MC-REGULATED,0.01,0.00,0.01,0.02,USA,2/3/2020,
pp1,sale,USD,40,,,paypal_account,,0,0,1.5,1.5,,12/31/2025,
`;
  it('keeps sales, splits the fee and takes Settlement Amount as the gross', async () => {
    const [card, paypal, ...rest] = await fees('braintree', report);
    expect(rest).toEqual([]);
    expect(card).toMatchObject({
      txnRef: '9celsl42',
      dimensions: {
        connector: 'braintree',
        cardNetwork: 'mc',
        variant: 'mcdebit',
        funding: 'debit',
        issuerCountry: 'usa',
        currency: 'usd',
        icCategory: 'mc-regulated comm (db)',
      },
      txnDate: '2020-02-02',
      gross: 72.5,
      interchange: 0.26,
      schemeFee: 0.0395,
      commission: 0.08,
      markup: 0,
    });
    expect(card?.totalFee).toBeCloseTo(0.3795, 9);
    // A non-card instrument clusters as the instrument.
    expect(paypal).toMatchObject({
      dimensions: { cardNetwork: 'paypal_account', variant: 'paypalaccount', funding: '' },
      txnDate: '2025-12-31',
      totalFee: 1.5,
    });
  });
});

describe('the chase report format', () => {
  // The peer's report, its refund row padded to the header's 28 fields (ours refuses a short row; the peer's reader does not).
  const report = `\uFEFFBEGIN,EntityId=418553,Frequency=adhoc
EntityId=418553,ReportTypeName=SubmissionDetails,Frequency=adhoc,FromDate=2025-03-03,ToDate=2025-03-04
Submission Date,Presentment Currency Code,Settlement Currency Code,Transaction Division External Identifier,Payment Method Code,Merchant Order Number,Account Number,Credit Card Expiration Year Month Number,Transaction Amount in Presentment Currency,Merchant Action Code,Action Type Code Text,Authorization Date,Country of Issuance,Transaction Type Code,Transaction Type Text,Merchant Category Code,Digital Token Method Code,Digital Wallet Brand,Interchange Qualification Code,Interchange Unit Fee,Fee Rate,Total Interchange Amount,Total Assessment Amount,Other Debit Passthrough Fees,Merchant Information Description,Surcharge Amount,Bank Sort Code,Card Usage Type
3/3/2025,USD,USD,418554,VI,SYN0002500,401068XXXXXX9249,26-Jan,60,DP,SALE,3/3/2025,IN,7,ECI Indicator - Channel Encrypted Transaction,4722,0,,VINT,0.20,0.0315,-2.09,-0.084,-0.01,N,,,3
3/3/2025,USD,USD,418554,VI,SYN0002501,476134XXXXXX0050,25-May,-20,RF,REFUND,3/3/2025,US,7,ECI Indicator - Channel Encrypted Transaction,5968,0,,,,-0.0205,0.41,-0.022,0,N,,,1
END,EntityId=418553,Frequency=adhoc
`;
  it('drops the report’s framing, keeps sales and negates the fees', async () => {
    const rows = await read('chase', report);
    expect(rows.map((row) => [row.line, row.kind])).toEqual([
      [4, 'fee'],
      [5, 'skip'],
    ]);
    const fee = rows[0]?.fee;
    expect(fee).toMatchObject({
      txnRef: 'SYN0002500',
      dimensions: {
        connector: 'chase',
        cardNetwork: 'visa',
        variant: 'visacredit',
        funding: 'credit',
        issuerCountry: 'in',
        currency: 'usd',
        icCategory: 'vint',
      },
      txnDate: '2025-03-03',
      gross: 60,
      interchange: 2.09,
      schemeFee: 0.084,
      markup: 0.01,
      commission: 0,
    });
    expect(fee?.totalFee).toBeCloseTo(2.184, 9);
  });

  it('lets the interchange programme correct the card usage type, and names wallets', async () => {
    const [wallet, corrected] = await fees(
      'chase',
      `BEGIN,EntityId=1,Frequency=adhoc
Merchant Order Number,Payment Method Code,Card Usage Type,Country of Issuance,Settlement Currency Code,Interchange Qualification Code,Action Type Code Text,Transaction Amount in Presentment Currency,Total Interchange Amount,Total Assessment Amount,Digital Wallet Brand
o1,MC,1,US,USD,MCEB,SALE,40,-0.30,-0.05,APPLE
o2,VI,1,US,USD,V148,SALE,100,-3.30,-0.10,
END,EntityId=1,Frequency=adhoc
`,
    );
    expect(wallet?.dimensions).toMatchObject({ cardNetwork: 'mc', funding: 'debit', variant: 'mc_applepay' });
    // Every row stamped usage 1 (debit), but V148 is a credit programme.
    expect(corrected?.dimensions).toMatchObject({ funding: 'credit', variant: 'visacredit' });
  });
});

describe('the checkout report format', () => {
  const report = `Payment ID,Action Type,Breakdown Type,Payment Method,Card Type,Issuer Country,Holding Currency,Holding Currency Amount,Processed On
pay_1,Authorization,Authorization Fixed Fee,VISA,Credit,GB,GBP,-0.01,2026-07-09T18:07:06.844
pay_1,Authorization,Scheme Variable Fee,VISA,Credit,GB,GBP,-0.05,2026-07-09T18:07:06.844
pay_1,Capture,Capture,VISA,Credit,GB,GBP,50.00,2026-07-09T18:07:06.844
pay_1,Capture,Premium Fixed Fee,VISA,Credit,GB,GBP,-0.02,2026-07-09T18:07:06.844
pay_1,Capture,Premium Variable Fee,VISA,Credit,GB,GBP,-0.03,2026-07-09T18:07:06.844
pay_1,Capture,Scheme Fixed Fee,VISA,Credit,GB,GBP,-0.04,2026-07-09T18:07:06.844
pay_2,Capture,Capture,MASTERCARD,Debit,US,GBP,20.00,2026-07-09T10:00:00.000
pay_2,Capture,Blended Fixed Fee,MASTERCARD,Debit,US,GBP,-0.01,2026-07-09T10:00:00.000
pay_2,Capture,Blended Variable Fee,MASTERCARD,Debit,US,GBP,-0.02,2026-07-09T10:00:00.000
pay_2,Partial Refund,Refund,MASTERCARD,Debit,US,GBP,-5.00,2026-07-09T10:00:00.000
pay_2,Partial Refund,Refund Fixed Fee,MASTERCARD,Debit,US,GBP,-0.01,2026-07-09T10:00:00.000
pay_3,Authorization,Authorization Fixed Fee,VISA,Credit,GB,GBP,-0.01,2026-07-09T11:00:00.000
pay_3,Authorization,Scheme Fixed Fee,VISA,Credit,GB,GBP,-0.003,2026-07-09T11:00:00.000
pay_4,Partial Capture,Partial Capture,AMEX,Credit,GB,GBP,30.00,2026-07-09T12:00:00.000
pay_4,Partial Capture,Partial Capture,AMEX,Credit,GB,GBP,20.00,2026-07-09T12:00:00.000
`;
  it('folds each captured payment’s rows into one fee row at its first capture’s line', async () => {
    const rows = (await read('checkout', report)).filter((row) => row.kind !== 'skip');
    expect(rows.map((row) => [row.line, row.fee?.txnRef])).toEqual([
      [4, 'pay_1'],
      [8, 'pay_2'],
      [15, 'pay_4'],
    ]);
    const [p1, p2, p4] = rows.map((row) => row.fee);
    expect(p1).toMatchObject({
      dimensions: {
        connector: 'checkout',
        cardNetwork: 'visa',
        funding: 'credit',
        variant: 'visacredit',
        issuerCountry: 'gb',
        currency: 'gbp',
        icCategory: '',
      },
      txnDate: '2026-07-09',
      gross: 50,
      interchange: 0,
      markup: 0,
    });
    // Scheme: 0.05 (authorisation) + 0.04; commission: 0.01 + 0.02 + 0.03.
    expect(p1?.schemeFee).toBeCloseTo(0.09, 9);
    expect(p1?.commission).toBeCloseTo(0.06, 9);
    expect(p1?.totalFee).toBeCloseTo(0.15, 9);
    // The partial refund is skipped, not netted.
    expect(p2).toMatchObject({ dimensions: { cardNetwork: 'mc', variant: 'mcdebit' }, gross: 20, schemeFee: 0 });
    expect(p2?.commission).toBeCloseTo(0.03, 9);
    // Partial captures add up.
    expect(p4).toMatchObject({ dimensions: { cardNetwork: 'amex', variant: 'amexcredit' }, gross: 50 });
  });

  it('leaves out a captured payment whose interchange is not billed yet on a network that carries it', async () => {
    const refs = (
      await fees(
        'checkout',
        `Payment ID,Action Type,Breakdown Type,Payment Method,Card Type,Card Category,Issuer Country,Holding Currency,Holding Currency Amount,Processed On
ic_1,Capture,Capture,VISA,Credit,Consumer,AE,USD,1000.00,2026-07-24T10:00:00.000
ic_1,Capture,Interchange Fixed Fee,VISA,Credit,Consumer,AE,USD,-20.00,2026-07-24T10:00:00.000
ic_late,Capture,Capture,VISA,Credit,Consumer,FI,USD,1500.00,2026-07-26T23:00:00.000
ic_late,Capture,Scheme Variable Fee,VISA,Credit,Consumer,FI,USD,-12.00,2026-07-26T23:00:00.000
amex_1,Capture,Capture,AMEX,Credit,Consumer,US,USD,1725.20,2026-07-25T10:00:00.000
amex_1,Capture,Scheme Variable Fee,AMEX,Credit,Consumer,US,USD,-30.00,2026-07-25T10:00:00.000
ic_orphan,Capture,Interchange Fixed Fee,VISA,Credit,Consumer,GB,USD,-5.00,2026-07-24T10:00:00.000
`,
      )
    ).map((fee) => `${fee.txnRef}:${fee.dimensions.icCategory}`);
    expect(refs).toEqual(['ic_1:consumer', 'amex_1:consumer']);
  });

  it('names a bad amount by its line, as every format does', async () => {
    const rows = await read(
      'checkout',
      'Payment ID,Action Type,Breakdown Type,Payment Method,Card Type,Issuer Country,Holding Currency,Holding Currency Amount,Processed On\np,Capture,Capture,VISA,Credit,GB,GBP,lots,2026-07-09\n',
    );
    expect(rows).toEqual([{ line: 2, kind: 'invalid', reason: "amount 'lots' is not a number" }]);
  });
});
