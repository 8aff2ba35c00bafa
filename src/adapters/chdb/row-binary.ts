import type { InsertColumn } from '../clickhouse/encode-tab-separated.js';

/**
 * Bytes in ClickHouse's `RowBinary` format, appended row by row into one growing buffer.
 *
 * chDB parses RowBinary in about a third of the CPU it spends on the same rows as TabSeparated
 * (6.7 against 19.6 µs per decision's four rows, bench/README.md), and writing it here costs no more
 * than escaping text. Its layout (ClickHouse's "Formats" reference): values in column order, with no
 * separators; integers and floats little-endian at their type's width; `String` as a LEB128 byte
 * length then UTF-8; `Nullable(T)` as one byte (1 null, 0 a value that follows); `Array(T)` as a
 * LEB128 count then its elements; `DateTime` as UInt32 seconds.
 */
export class RowBinaryBuffer {
  #bytes: Buffer;
  #length = 0;

  constructor(initialBytes = 64 * 1024) {
    this.#bytes = Buffer.allocUnsafe(initialBytes);
  }

  /** Bytes written so far. */
  get length(): number {
    return this.#length;
  }

  /** Bytes the buffer holds before it must grow. */
  get capacity(): number {
    return this.#bytes.length;
  }

  /** The bytes written so far (a view, valid until the next write). */
  view(): Buffer {
    return this.#bytes.subarray(0, this.#length);
  }

  /** Drops everything from `length` on: how a half-written handoff is taken back. */
  truncate(length: number): void {
    if (length < 0 || length > this.#length) throw new RangeError(`cannot truncate ${this.#length} bytes to ${length}`);
    this.#length = length;
  }

  #room(bytes: number): void {
    if (this.#length + bytes <= this.#bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.#bytes.length * 2, this.#length + bytes));
    this.#bytes.copy(grown, 0, 0, this.#length);
    this.#bytes = grown;
  }

  varUInt(value: number): void {
    this.#room(10);
    let rest = value;
    while (rest >= 0x80) {
      this.#bytes[this.#length++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    this.#bytes[this.#length++] = rest;
  }

  string(value: string): void {
    // A string of under 43 UTF-16 units is under 128 UTF-8 bytes: its length fits one LEB128 byte,
    // so it is written first and its length after, without measuring it twice.
    if (value.length < 43) {
      this.#room(1 + value.length * 3);
      const written = this.#bytes.write(value, this.#length + 1);
      this.#bytes[this.#length] = written;
      this.#length += 1 + written;
      return;
    }
    const bytes = Buffer.byteLength(value, 'utf8');
    this.varUInt(bytes);
    this.#room(bytes);
    this.#length += this.#bytes.write(value, this.#length, bytes);
  }

  uint8(value: number): void {
    this.#room(1);
    this.#bytes[this.#length++] = value;
  }

  uint16(value: number): void {
    this.#room(2);
    this.#length = this.#bytes.writeUInt16LE(value, this.#length);
  }

  uint32(value: number): void {
    this.#room(4);
    this.#length = this.#bytes.writeUInt32LE(value, this.#length);
  }

  /** A UInt64 from a safe integer (JavaScript numbers reach 2^53; no row of ours holds more). */
  uint64(value: number): void {
    this.#room(8);
    this.#bytes.writeUInt32LE(value % 0x1_0000_0000, this.#length);
    this.#bytes.writeUInt32LE(Math.floor(value / 0x1_0000_0000), this.#length + 4);
    this.#length += 8;
  }

  float64(value: number): void {
    this.#room(8);
    this.#length = this.#bytes.writeDoubleLE(value, this.#length);
  }
}

/** Writes one row's values, in its columns' order. */
export type RowBinaryEncoder = (buffer: RowBinaryBuffer, row: Readonly<Record<string, unknown>>) => void;

type WriteValue = (buffer: RowBinaryBuffer, value: unknown) => void;

function integer(column: string, type: string, max: number, write: (buffer: RowBinaryBuffer, value: number) => void): WriteValue {
  return (buffer, value) => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
      throw new TypeError(`${column} (${type}) takes an integer from 0 to ${max}, not ${String(value)}`);
    }
    write(buffer, value);
  };
}

function writerOf(column: string, type: string): WriteValue {
  switch (type) {
    case 'String':
      // As TabSeparated wrote it: a missing value is the empty string.
      return (buffer, value) => buffer.string(typeof value === 'string' ? value : String(value ?? ''));
    case 'UInt8':
      return integer(column, type, 0xff, (buffer, value) => buffer.uint8(value));
    case 'UInt16':
      return integer(column, type, 0xffff, (buffer, value) => buffer.uint16(value));
    case 'UInt32':
    case 'DateTime':
    case "DateTime('UTC')":
      return integer(column, type, 0xffff_ffff, (buffer, value) => buffer.uint32(value));
    case 'UInt64':
      return integer(column, type, Number.MAX_SAFE_INTEGER, (buffer, value) => buffer.uint64(value));
    case 'Float64':
      return (buffer, value) => {
        if (typeof value !== 'number') throw new TypeError(`${column} (${type}) takes a number, not ${String(value)}`);
        buffer.float64(value);
      };
    case 'Array(String)':
      return (buffer, value) => {
        const values = (value ?? []) as readonly unknown[];
        buffer.varUInt(values.length);
        for (const element of values) buffer.string(String(element));
      };
  }
  const nullable = /^Nullable\((.+)\)$/.exec(type);
  if (nullable !== null) {
    const inner = writerOf(column, nullable[1]!);
    return (buffer, value) => {
      if (value === null || value === undefined) return buffer.uint8(1);
      buffer.uint8(0);
      inner(buffer, value);
    };
  }
  throw new TypeError(`column ${column} has type ${type}, which the RowBinary encoder does not write`);
}

/**
 * The encoder of `columns` into a table whose column types are `types` (name → type, as `DESCRIBE
 * TABLE` answers them). Values are checked against their types as they are written: a value that does
 * not fit throws, where TabSeparated text would have failed the whole insert.
 *
 * @throws TypeError when a column is not in `types`, or has a type this encoder does not write.
 */
export function rowBinaryEncoder(columns: readonly InsertColumn[], types: Readonly<Record<string, string>>): RowBinaryEncoder {
  const writers = columns.map((column) => {
    const type = Object.hasOwn(types, column.name) ? types[column.name] : undefined;
    if (type === undefined) throw new TypeError(`the table has no column ${column.name}`);
    const write = writerOf(column.name, type);
    if (column.kind === 'secondsOfMs') {
      const source = column.source;
      return (buffer: RowBinaryBuffer, row: Readonly<Record<string, unknown>>) => write(buffer, Math.floor(Number(row[source]) / 1000));
    }
    const name = column.name;
    return (buffer: RowBinaryBuffer, row: Readonly<Record<string, unknown>>) => write(buffer, row[name]);
  });
  return (buffer, row) => {
    for (let index = 0; index < writers.length; index++) writers[index]!(buffer, row);
  };
}

/** The `file()` structure argument naming `columns` with their types (inside a quoted literal). */
export function rowBinaryStructure(columns: readonly InsertColumn[], types: Readonly<Record<string, string>>): string {
  return columns.map((column) => `${column.name} ${types[column.name]}`).join(', ');
}
