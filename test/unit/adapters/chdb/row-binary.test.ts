import { describe, expect, it } from 'vitest';
import { RowBinaryBuffer, rowBinaryEncoder } from '../../../../src/adapters/chdb/row-binary.js';
import type { InsertColumn } from '../../../../src/adapters/clickhouse/encode-tab-separated.js';

const encode = (columns: readonly InsertColumn[], types: Record<string, string>, row: Record<string, unknown>) => {
  const buffer = new RowBinaryBuffer(4);
  rowBinaryEncoder(columns, types)(buffer, row);
  return [...buffer.view()];
};

describe('RowBinary encoding', () => {
  it('writes each type at its width, little-endian, strings and arrays behind LEB128 lengths', () => {
    const columns: InsertColumn[] = [
      { name: 's', kind: 'string' },
      { name: 'u8', kind: 'number' },
      { name: 'u16', kind: 'number' },
      { name: 'u64', kind: 'number' },
      { name: 'n', kind: 'nullableNumber' },
      { name: 'm', kind: 'nullableNumber' },
      { name: 'a', kind: 'stringArray' },
      { name: 'at', kind: 'secondsOfMs', source: 'ms' },
    ];
    const types = {
      s: 'String',
      u8: 'UInt8',
      u16: 'UInt16',
      u64: 'UInt64',
      n: 'Nullable(Float64)',
      m: 'Nullable(UInt64)',
      a: 'Array(String)',
      at: "DateTime('UTC')",
    };
    const row = { s: 'é', u8: 7, u16: 0x0102, u64: 2 ** 32 + 3, n: null, m: 1, a: ['x', ''], ms: 1_001_999 };
    expect(encode(columns, types, row)).toEqual([
      ...[2, 0xc3, 0xa9], // 'é': two UTF-8 bytes
      7,
      ...[0x02, 0x01],
      ...[3, 0, 0, 0, 1, 0, 0, 0],
      1, // null
      ...[0, 1, 0, 0, 0, 0, 0, 0, 0],
      ...[2, 1, 0x78, 0],
      ...[0xe9, 0x03, 0, 0], // 1001 seconds
    ]);
  });

  it('writes a string of 128 bytes or more behind a multi-byte length, measured in bytes', () => {
    const long = '€'.repeat(43); // 43 units, 129 bytes
    const bytes = encode([{ name: 's', kind: 'string' }], { s: 'String' }, { s: long });
    expect(bytes.slice(0, 2)).toEqual([0x81, 0x01]);
    expect(Buffer.from(bytes.slice(2)).toString('utf8')).toBe(long);
  });

  it('refuses a value its column cannot hold, naming the column', () => {
    const columns: InsertColumn[] = [{ name: 'status', kind: 'number' }];
    expect(() => encode(columns, { status: 'UInt8' }, { status: 300 })).toThrow('status (UInt8) takes an integer from 0 to 255, not 300');
    expect(() => encode(columns, { status: 'UInt64' }, { status: 1.5 })).toThrow('status (UInt64)');
    expect(() => encode(columns, { status: 'UInt16' }, { status: -1 })).toThrow('status (UInt16)');
  });

  it('will not build an encoder for a column the table lacks or a type it does not write', () => {
    const columns: InsertColumn[] = [{ name: 'id', kind: 'string' }];
    expect(() => rowBinaryEncoder(columns, {})).toThrow('the table has no column id');
    expect(() => rowBinaryEncoder(columns, { id: 'UUID' })).toThrow('column id has type UUID');
  });
});
