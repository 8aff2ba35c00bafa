import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureDistBuilt } from '../pipeline/switchyard-process.js';

const run = promisify(execFile);
const bench = join(fileURLToPath(new URL('../../../', import.meta.url)), 'bench/decide-instructions.mjs');

interface AllocationLine {
  readonly benchmark: string;
  readonly decisions: number;
  readonly bytes_per_decision: { readonly this: Readonly<Record<string, number>> };
}

// `MEASURE=allocations` of decide-instructions.mjs: the sampled bytes must be what the decisions
// allocated (objects already collected included), and tell a feature's allocations from plain SR's.
describe('decide-instructions MEASURE=allocations', () => {
  let stdout = '';

  beforeAll(async () => {
    await ensureDistBuilt();
    ({ stdout } = await run(process.execPath, [bench], {
      env: {
        PATH: process.env['PATH'] ?? '',
        MEASURE: 'allocations',
        KINDS: 'plain,sticky',
        WARM_UP: '500',
        DECISIONS: '3000',
        CUSTOMERS: '100',
        SAMPLING_BYTES: '128',
      },
      maxBuffer: 16 * 1024 * 1024,
    }));
  }, 120_000);

  it('counts what each decision allocated, collected objects included', () => {
    const line = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as AllocationLine;
    expect(line.benchmark).toBe('decide-allocations');
    expect(line.decisions).toBe(3000);
    // A decision builds its request, scores, decision and event: kilobytes, all of it garbage by the
    // end of the run. Counting only what is still alive would give next to nothing per decision.
    expect(line.bytes_per_decision.this['plain']).toBeGreaterThan(2000);
  });

  it('shows a feature row allocating more than plain SR, by the feature’s own functions', () => {
    const line = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as AllocationLine;
    const { plain, sticky } = line.bytes_per_decision.this as { plain: number; sticky: number };
    // The sticky step's lookup, its copy of the decision and the event's `sticky` block, at least.
    expect(sticky - plain).toBeGreaterThan(100);
    const stickyRows = stdout.slice(stdout.indexOf('sticky over plain'));
    expect(stickyRows).toMatch(/\+\d+ {2}\S+ dist\/src\/decision\/sticky\/apply-sticky-routing\.js:\d+/);
  });
});
