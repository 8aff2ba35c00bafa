import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, readCsvRecords } from '../../../../src/costs/ingestion/csv-records.js';
import { settlementFormats } from '../../../../src/costs/ingestion/settlement-formats.js';

async function* chunks(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
}

const read = async (text: string, size = 3) => {
  const records: { line: number; fields: readonly string[] }[] = [];
  for await (const record of readCsvRecords(chunks(text, size))) records.push(record);
  return records;
};

describe('the streaming CSV reader', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, across chunk boundaries, with physical line numbers', async () => {
    const text = '\uFEFFa,b,c\r\n1,"x, ""y""",3\r\n\r\n2,"multi\r\nline",é\n3,,\n';
    for (const size of [1, 2, 3, 7, 1_000]) {
      expect(await read(text, size)).toEqual([
        { line: 1, fields: ['a', 'b', 'c'] },
        { line: 2, fields: ['1', 'x, "y"', '3'] },
        { line: 4, fields: ['2', 'multi\nline', 'é'] },
        { line: 6, fields: ['3', '', ''] },
      ]);
    }
  });

  it('reads a last record without a line break', async () => {
    expect(await read('a,b\n1,2')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['1', '2'] },
    ]);
  });

  it('refuses an unclosed quote, naming the line it starts on', async () => {
    const failure = await read('a,b\n1,"open\n2,3\n').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CsvSyntaxError);
    expect((failure as CsvSyntaxError).line).toBe(2);
  });
});

describe('the adyen report format', () => {
  const adyen = settlementFormats.get('adyen')!;
  const rows = adyen.rows;
  if (rows.kind !== 'per-row') throw new Error('the adyen report is read row by row');
  const row = (values: Record<string, string>) => rows.mapRow((field) => values[field] ?? '');
  const settled = {
    record_type: 'Settled',
    txn_ref: 'ref2',
    variant: 'visastandarddebit',
    card_network: 'VISA',
    issuer_country: 'FR',
    currency: 'EUR',
    payable: '100.00',
    commission: '0.05',
    markup: '',
    scheme_fee: '0.02',
    interchange: '0.20',
    icsf_details: '[{"t":"ic","n":"Intra EEA Consumer EMV Debit","bps":20}]',
    booking_date: '2026-01-16 00:00:53',
  };

  it('derives gross, total fee, funding and interchange category from a Settled line', () => {
    const verdict = row(settled);
    expect(verdict.kind).toBe('fee');
    if (verdict.kind !== 'fee') return;
    expect(verdict.fee.totalFee).toBeCloseTo(0.27, 9);
    expect(verdict.fee.gross).toBeCloseTo(100.27, 9);
    expect(verdict.fee.dimensions).toEqual({
      connector: 'adyen',
      cardNetwork: 'visa',
      variant: 'visastandarddebit',
      funding: 'debit',
      issuerCountry: 'fr',
      currency: 'eur',
      icCategory: 'intra eea consumer emv debit',
    });
    expect(verdict.fee.txnDate).toBe('2026-01-16');
  });

  it('skips other record types and names what is wrong with a bad line', () => {
    expect(row({ ...settled, record_type: 'SentForSettle' })).toEqual({ kind: 'skip' });
    expect(row({ ...settled, interchange: '0,20' })).toEqual({ kind: 'invalid', reason: "interchange '0,20' is not a number" });
    expect(row({ ...settled, payable: '-5' })).toMatchObject({ kind: 'invalid', reason: expect.stringContaining('is not positive') });
    expect(row({ ...settled, txn_ref: ' ' })).toEqual({ kind: 'invalid', reason: 'txn_ref is empty' });
  });

  it('reads funding from the interchange rate when the variant is silent', () => {
    const verdict = row({ ...settled, variant: 'cartebancaire', icsf_details: '[{"t":"ic","n":"Commercial","bps":90}]' });
    expect(verdict.kind === 'fee' && verdict.fee.dimensions.funding).toBe('commercial');
  });
});
