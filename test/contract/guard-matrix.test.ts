import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeGuardTable, describeSessionKinds, guardShards } from '../helpers/guard-matrix.js';

// The guard matrix (test/helpers/guard-matrix.ts): the route table and the session kinds here, the
// per-route cases in guard-matrix-routes-<n>.test.ts (one shard each, so they run side by side).
describeGuardTable();
describeSessionKinds();

describe('the guard matrix shards', () => {
  it('has one file per shard, so every guarded route is in one of them', () => {
    const files = readdirSync(import.meta.dirname).filter((name) => /^guard-matrix-routes-\d+\.test\.ts$/.test(name));
    expect(files.sort()).toEqual(Array.from({ length: guardShards }, (_unused, index) => `guard-matrix-routes-${index + 1}.test.ts`).sort());
  });
});
