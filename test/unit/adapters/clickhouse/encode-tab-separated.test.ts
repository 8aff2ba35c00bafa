import { describe, expect, it } from 'vitest';
import {
  apiEventColumns,
  columnNames,
  domainEventColumns,
  llmCallColumns,
  llmRouteCallColumns,
} from '../../../../src/adapters/clickhouse/analytics-insert-columns.js';
import { tabSeparatedInsertSql } from '../../../../src/adapters/clickhouse/clickhouse-executor.js';
import { encodeTabSeparated, escapeTabSeparated, type InsertColumn } from '../../../../src/adapters/clickhouse/encode-tab-separated.js';
import { SwitchyardError } from '../../../../src/errors/switchyard-error.js';

const columns: readonly InsertColumn[] = [
  { name: 'id', kind: 'string' },
  { name: 'count', kind: 'number' },
  { name: 'score', kind: 'nullableNumber' },
  { name: 'names', kind: 'stringArray' },
  { name: 'created_at', kind: 'secondsOfMs', source: 'created_at_ms' },
];

describe('encodeTabSeparated', () => {
  it('writes one line per row, columns in order, separated by tabs', () => {
    const text = encodeTabSeparated(columns, [
      { id: 'a', count: 3, score: 0.25, names: ['x', 'y'], created_at_ms: 1_763_900_000_999 },
      { id: 'b', count: 0, score: null, names: [], created_at_ms: 1_000 },
    ]);
    expect(text).toBe("a\t3\t0.25\t['x','y']\t1763900000\nb\t0\t\\N\t[]\t1\n");
  });

  it('escapes backslash, tab, line feed, carriage return and NUL in strings and leaves the rest', () => {
    expect(escapeTabSeparated('plain é 💳 \'q" -- /*')).toBe('plain é 💳 \'q" -- /*');
    expect(escapeTabSeparated('a\\b\tc\nd\re\0f')).toBe('a\\\\b\\tc\\nd\\re\\0f');
    expect(escapeTabSeparated('\\N')).toBe('\\\\N');
  });

  it('quotes array elements once, escaping quotes and the same characters', () => {
    const text = encodeTabSeparated([{ name: 'names', kind: 'stringArray' }], [{ names: ["a'b", 'c\\d', 'e\tf\ng'] }]);
    expect(text).toBe("['a\\'b','c\\\\d','e\\tf\\ng']\n");
  });

  it('encodes no rows as empty text', () => {
    expect(encodeTabSeparated(columns, [])).toBe('');
  });
});

describe('analytics insert columns', () => {
  it('lists each table column once and ends with created_at from created_at_ms', () => {
    for (const table of [domainEventColumns, apiEventColumns, llmCallColumns, llmRouteCallColumns]) {
      const names = columnNames(table);
      expect(new Set(names).size).toBe(names.length);
      expect(table.at(-1)).toEqual({ name: 'created_at', kind: 'secondsOfMs', source: 'created_at_ms' });
    }
    expect(columnNames(llmCallColumns)).not.toContain('route_group');
    expect(llmRouteCallColumns.find((column) => column.name === 'eliminated_candidates')?.kind).toBe('stringArray');
  });
});

describe('tabSeparatedInsertSql', () => {
  it('names the table and columns of a TabSeparated insert', () => {
    expect(tabSeparatedInsertSql('db.t', ['a', 'b_2'])).toBe('INSERT INTO db.t (a, b_2) FORMAT TabSeparated');
  });

  it('refuses names that are not plain identifiers', () => {
    for (const [table, names] of [
      ['db.t; DROP', ['a']],
      ['db.t', ['a b']],
      ['db.t', []],
    ] as const) {
      const failure = (() => {
        try {
          return tabSeparatedInsertSql(table, names);
        } catch (error) {
          return error;
        }
      })();
      expect(SwitchyardError.isInstance(failure) && failure.code).toBe('SY_INTERNAL');
    }
  });
});
