import { describe, expect, it } from 'vitest';
import { addSamples, parsePerfReport } from '../../../bench/lib/perf-symbols.mjs';

/** `perf report --sort sym --stdio -n` as perf 6 prints it, with a perf map's JavaScript frames. */
const report = `# To display the perf.data header info, please use --header/--header-only options.
#
# Total Lost Samples: 0
#
# Samples: 12K of event 'cpu-clock'
# Event count (approx.): 3065000000
#
# Overhead       Samples  Symbol
# ........  ............  ..............................................
#
     2.63%           335  [.] Builtins_KeyedLoadIC_Megamorphic
     1.63%           208  [.] Builtins_FindOrderedHashMapEntry
     0.71%            90  [.] JS:*'rankByExpectedValue file:///work/main/dist/src/decision/multi-objective/rank-by-expected-value.js:25:36
     0.02%             3  [.] JS:~rankByExpectedValue file:///tmp/scratch/dist/src/decision/multi-objective/rank-by-expected-value.js:25:36
     0.40%            51  [.] JS:*'find /work/main/node_modules/find-my-way/index.js:618:39
     0.30%            38  [.] JS:*'matchKnownFields node:_http_incoming:347:26
     0.20%            25  [.] JS:*' file:///work/main/dist/src/decision/decide-payment.js:39:12
     0.10%            13  [k] _raw_spin_unlock_irqrestore


# Samples: 0 of event 'dummy:u'
`;

describe('parsePerfReport (rows-by-thread PERF=1)', () => {
  it('reads each symbol with its samples, native and kernel alike', () => {
    const samples = parsePerfReport(report);
    expect(samples.get('Builtins_KeyedLoadIC_Megamorphic')).toBe(335);
    expect(samples.get('Builtins_FindOrderedHashMapEntry')).toBe(208);
    expect(samples.get('_raw_spin_unlock_irqrestore')).toBe(13);
  });

  it("names a JavaScript frame by function and path from dist/ or node_modules/, so a function's tiers and checkouts add up", () => {
    const samples = parsePerfReport(report);
    expect(samples.get('rankByExpectedValue dist/src/decision/multi-objective/rank-by-expected-value.js:25:36')).toBe(93);
    expect(samples.get('find node_modules/find-my-way/index.js:618:39')).toBe(51);
    expect(samples.get('matchKnownFields node:_http_incoming:347:26')).toBe(38);
    expect(samples.get('(anonymous) dist/src/decision/decide-payment.js:39:12')).toBe(25);
  });

  it('skips the header, comments and blank lines', () => {
    expect([...parsePerfReport(report).values()].reduce((sum, count) => sum + count, 0)).toBe(335 + 208 + 93 + 51 + 38 + 25 + 13);
    expect(parsePerfReport('# only a comment\n\n').size).toBe(0);
  });

  it('adds one recording into the running totals', () => {
    const totals = new Map([['a', 2]]);
    addSamples(
      totals,
      new Map([
        ['a', 3],
        ['b', 1],
      ]),
    );
    expect(totals).toEqual(
      new Map([
        ['a', 5],
        ['b', 1],
      ]),
    );
  });
});
