import { describe, expect, it } from 'vitest';
import { JournaledTables } from '../../../../src/adapters/memory/journaled-tables.js';
import { silentLogger } from '../../../../src/logging/logger.js';

function tables(now: () => number = () => 0) {
  return new JournaledTables({ dir: undefined, durableTables: [], now, logger: silentLogger });
}

describe('JournaledTables.version', () => {
  it('changes with every write and delete of its table, and not with reads, misses or other tables', () => {
    const db = tables();
    const seen = [db.version('configs')];
    const expectChanged = () => {
      const version = db.version('configs');
      expect(seen).not.toContain(version);
      seen.push(version);
    };
    const expectSame = () => expect(db.version('configs')).toBe(seen.at(-1));

    db.set('configs', 'a', 1);
    expectChanged();
    db.set('configs', 'a', 1);
    expectChanged();
    db.get('configs', 'a');
    db.has('configs', 'missing');
    db.delete('configs', 'missing');
    db.set('merchants', 'a', 1);
    [...db.entries('configs')];
    expectSame();
    db.delete('configs', 'a');
    expectChanged();
  });

  it('changes when an entry expires on a read or is swept', () => {
    let now = 0;
    const db = tables(() => now);
    db.set('t', 'a', 1, 10);
    db.set('t', 'b', 1, 20);
    db.set('t', 'c', 1);
    let version = db.version('t');
    now = 10;
    expect(db.get('t', 'a')).toBeUndefined();
    expect(db.version('t')).not.toBe(version);
    version = db.version('t');
    now = 20;
    db.sweepExpired('t');
    expect(db.version('t')).not.toBe(version);
    version = db.version('t');
    db.sweepUniformTtl('t');
    expect(db.version('t')).toBe(version);
    expect([...db.entries('t')].map(([key]) => key)).toEqual(['c']);
  });
});
