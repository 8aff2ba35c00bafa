import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// Runs the script as CI does (a child process), so its exit status and --out file are checked too.
const script = join(import.meta.dirname, '../../../scripts/test-summary.mjs');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'test-summary-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface Test {
  readonly fullName: string;
  readonly status: 'passed' | 'failed' | 'skipped' | 'pending';
  readonly failureMessages?: readonly string[];
}

/** A vitest JSON report (the fields the summary reads) for one file holding these tests. */
function report(name: string, tests: readonly Test[], extra: Record<string, unknown> = {}, fileStatus?: 'passed' | 'failed'): string {
  const file = join(dir, name);
  const failed = tests.filter((test) => test.status === 'failed').length;
  writeFileSync(
    file,
    JSON.stringify({
      numPassedTests: tests.filter((test) => test.status === 'passed').length,
      numFailedTests: failed,
      numPendingTests: tests.filter((test) => test.status === 'skipped' || test.status === 'pending').length,
      numTodoTests: 0,
      testResults: [
        {
          // Under the working directory, so the script names it by its relative path.
          name: join(process.cwd(), 'test/unit/example.test.ts'),
          status: fileStatus ?? (failed > 0 ? 'failed' : 'passed'),
          message: fileStatus === 'failed' ? 'Error: afterAll hook threw\n    at stack' : '',
          assertionResults: tests.map((test) => ({ failureMessages: [], ...test })),
        },
      ],
      ...extra,
    }),
  );
  return file;
}

function summarize(...args: string[]): { lines: string[]; status: number | null } {
  const run = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });
  return { lines: run.stdout.trimEnd().split('\n'), status: run.status };
}

describe('scripts/test-summary.mjs', () => {
  it('prints the passed and failed counts last and names each failed test above them', () => {
    const file = report('main.json', [
      { fullName: 'a works', status: 'passed' },
      { fullName: 'b works', status: 'failed', failureMessages: ['AssertionError: expected 1 to be 2\n    at x'] },
    ]);
    const { lines, status } = summarize('--vitest', file, '1');
    expect(lines.at(-1)).toBe('1 passed, 1 failed');
    expect(lines.at(-2)).toBe('FAILED test/unit/example.test.ts > b works: AssertionError: expected 1 to be 2');
    expect(status).toBe(1);
  });

  it("prints the rest of a failure's message under its name, without stack frames, long ones cut to their ends", () => {
    const stderr = Array.from({ length: 30 }, (_, index) => `[kafka] line ${index + 1}`);
    const file = report('detail.json', [
      {
        fullName: 'restarts the broker',
        status: 'failed',
        failureMessages: [`Error: deploy/local/kafka.sh start failed:\n${stderr.join('\n')}\n[kafka] ERROR: not ready\n    at localService (x.ts:1:1)`],
      },
      { fullName: 'short', status: 'failed', failureMessages: ['Error: cleanup failed:\n[redis] ERROR: port taken\n\n    at y'] },
    ]);
    const { lines } = summarize('--vitest', file, '1');
    const named = lines.indexOf('FAILED test/unit/example.test.ts > restarts the broker: Error: deploy/local/kafka.sh start failed:');
    expect(named).toBeGreaterThanOrEqual(0);
    expect(lines.slice(named + 1, named + 14)).toEqual([
      '  | [kafka] line 1',
      '  | [kafka] line 2',
      '  | ... 19 lines left out ...',
      ...Array.from({ length: 9 }, (_, index) => `  | [kafka] line ${index + 22}`),
      '  | [kafka] ERROR: not ready',
    ]);
    expect(lines.slice(-3)).toEqual([
      'FAILED test/unit/example.test.ts > short: Error: cleanup failed:',
      '  | [redis] ERROR: port taken',
      '0 passed, 2 failed',
    ]);
  });

  it('appends the skipped count only when tests were skipped', () => {
    const clean = report('clean.json', [{ fullName: 'a', status: 'passed' }]);
    expect(summarize('--vitest', clean, '0')).toEqual({ lines: ['1 passed, 0 failed'], status: 0 });
    const skipping = report('skipping.json', [
      { fullName: 'a', status: 'passed' },
      { fullName: 'b', status: 'skipped' },
      { fullName: 'c', status: 'pending' },
    ]);
    expect(summarize('--vitest', skipping, '0')).toEqual({ lines: ['1 passed, 0 failed, 2 skipped'], status: 0 });
  });

  it('counts each unhandled error as a failure though every test passed', () => {
    const file = report('unhandled.json', [{ fullName: 'a', status: 'passed' }], {
      unhandledErrors: ['Error: boom\n    at somewhere', 'Error: second'],
    });
    const { lines, status } = summarize('--vitest', file, '1');
    expect(lines).toContain('FAILED unhandled error: Error: boom');
    expect(lines.at(-1)).toBe('1 passed, 2 failed');
    expect(status).toBe(1);
  });

  it('counts a file that failed outside its tests (a throwing afterAll, a file that does not load)', () => {
    const file = report('hook.json', [{ fullName: 'a', status: 'passed' }], {}, 'failed');
    const { lines } = summarize('--vitest', file, '1');
    expect(lines.at(-2)).toBe('FAILED suite failed outside its tests: test/unit/example.test.ts: Error: afterAll hook threw');
    expect(lines.at(-1)).toBe('1 passed, 1 failed');
  });

  it('counts at least one failure when the runner exited non-zero with nothing failed in its report', () => {
    const file = report('quiet.json', [{ fullName: 'a', status: 'passed' }]);
    const { lines, status } = summarize('--vitest', file, '1');
    expect(lines.at(-1)).toBe('1 passed, 1 failed');
    expect(status).toBe(1);
  });

  it('counts a missing report and each failed step outside vitest as one failure, and sums several runs', () => {
    const main = report('main.json', [
      { fullName: 'a', status: 'passed' },
      { fullName: 'b', status: 'skipped' },
    ]);
    const { lines, status } = summarize(
      '--step',
      'typecheck',
      '2',
      '--step',
      'services',
      '0',
      '--vitest',
      main,
      '0',
      '--vitest',
      join(dir, 'absent.json'),
      '1',
    );
    expect(lines).toContain('FAILED step typecheck (exit 2): see its output above');
    expect(lines.at(-1)).toBe('1 passed, 2 failed, 1 skipped');
    expect(status).toBe(1);
  });

  it("prints the slowest files and each project's totals above the failures, the count still last", () => {
    const timing = (file: string, project: string, start: number, collect: number, run: number) => ({ file, project, setup: 0, collect, run, start });
    const file = report(
      'timed.json',
      [
        { fullName: 'a', status: 'passed' },
        { fullName: 'b', status: 'failed', failureMessages: ['Error: no'] },
      ],
      {
        startTime: 1_000,
        finishedAt: 31_000,
        fileTimings: [
          timing('test/unit/fast.test.ts', 'unit', 1_000, 100, 400),
          timing('test/contract/slow.test.ts', 'contract', 1_000, 2_000, 18_000),
          timing('test/contract/mid.test.ts', 'contract', 11_000, 1_000, 9_000),
        ],
      },
    );
    const { lines } = summarize('--vitest', file, '1');
    expect(lines).toEqual([
      'Slowest 3 of 3 test files (seconds: total = import + run; import includes setup):',
      '     20.0  contract  test/contract/slow.test.ts  (import 2.0, run 18.0)',
      '     10.0  contract  test/contract/mid.test.ts  (import 1.0, run 9.0)',
      '      0.5  unit      test/unit/fast.test.ts  (import 0.1, run 0.4)',
      'Per project (file-seconds: the sum over its files, run side by side; span: first start to last end):',
      '  contract     2 files      30.0 file-s  span    20.0 s',
      '  unit         1 files       0.5 file-s  span     0.5 s',
      'vitest wall time: timed 30.0 s',
      'FAILED test/unit/example.test.ts > b: Error: no',
      '1 passed, 1 failed',
    ]);
  });

  it("adds each file's CPU time where the report has it, and lists the files that used most", () => {
    const timing = (file: string, project: string, cpu: number, childCpu?: number) => ({
      file,
      project,
      setup: 0,
      collect: 1_000,
      run: 9_000,
      start: 1_000,
      cpu,
      childCpu,
    });
    const file = report('cpu.json', [{ fullName: 'a', status: 'passed' }], {
      startTime: 1_000,
      finishedAt: 11_000,
      fileTimings: [timing('test/integration/cli.test.ts', 'integration', 2_000, 6_500), timing('test/unit/pure.test.ts', 'unit', 3_000)],
    });
    const { lines } = summarize('--vitest', file, '0');
    expect(lines).toEqual([
      'Slowest 2 of 2 test files (seconds: total = import + run; import includes setup):',
      '     10.0  integration  test/integration/cli.test.ts  (import 1.0, run 9.0, cpu 2.0 + 6.5 in children)',
      '     10.0  unit         test/unit/pure.test.ts  (import 1.0, run 9.0, cpu 3.0)',
      "Most CPU: 2 of 2 test files (seconds of CPU: the file's own + the child processes it waited for):",
      '      8.5  integration  test/integration/cli.test.ts  (own 2.0, children 6.5)',
      '      3.0  unit         test/unit/pure.test.ts  (own 3.0, children 0.0)',
      'Per project (file-seconds: the sum over its files, run side by side; span: first start to last end):',
      '  integration     1 files      10.0 file-s  span    10.0 s  cpu     8.5 s',
      '  unit            1 files      10.0 file-s  span    10.0 s  cpu     3.0 s',
      'vitest wall time: cpu 10.0 s',
      '1 passed, 0 failed',
    ]);
  });

  it('writes the count line to the --out file as well', () => {
    const out = join(dir, 'summary.txt');
    const { lines } = summarize('--step', 'services', '1', '--out', out);
    expect(lines.at(-1)).toBe('0 passed, 1 failed');
    expect(readFileSync(out, 'utf8')).toBe('0 passed, 1 failed\n');
  });
});
