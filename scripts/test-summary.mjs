#!/usr/bin/env node
// Sums the test run's outcome into one line, printed last: "N passed, N failed" (", N skipped" when
// any were skipped). Arguments, in any order and repeatable:
//   --step NAME STATUS     a step outside vitest (build, services, type-check, lint): a non-zero exit
//                          status counts as one failure
//   --vitest REPORT STATUS a vitest run: its JSON report (scripts/vitest-json-reporter.mjs adds the
//                          unhandled errors) and the runner's exit status
//   --out FILE             also writes the count line to FILE (so .ci/run can print it after make's own lines)
// Errors outside tests count as failures: a file that failed to load or whose beforeAll/afterAll threw,
// each unhandled error, and a runner that exited non-zero without any of these (at least one).
// Each failure is named just above the count, so a log cut to its last lines still says what failed,
// with the rest of its message below it (at most 13 lines, no stack frames).
// Above the failures: the 20 slowest test files and each project's totals (scripts/slow-files.mjs),
// from the timings scripts/vitest-json-reporter.mjs adds to the reports.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, relative } from 'node:path';
import { slowFileLines } from './slow-files.mjs';

/** Failures outside any test, found in one vitest JSON report: the lines of each (failureLines). */
function errorsOutsideTests(report) {
  const found = [];
  for (const suite of report.testResults ?? []) {
    const failedTests = (suite.assertionResults ?? []).filter((test) => test.status === 'failed').length;
    // A failed file with no failed test: it did not load, or a hook outside the tests threw.
    if (suite.status === 'failed' && failedTests === 0) {
      found.push(failureLines(`suite failed outside its tests: ${relative(process.cwd(), suite.name)}`, suite.message));
    }
  }
  for (const error of report.unhandledErrors ?? []) found.push(failureLines('unhandled error', error));
  return found;
}

/**
 * One failure: "FAILED what: " and its message's first line, then the rest of the message indented,
 * without stack frames. A child's stderr carried in the message (a deploy/local script's "ERROR:"
 * line, the server log's tail) is the reason, and CI keeps only the log's last lines; a long rest
 * keeps its first 2 and last 10 lines.
 */
function failureLines(what, message) {
  const [first, ...more] = String(message ?? '').split('\n');
  const rest = more.filter((line) => line.trim() !== '' && !/^\s+at /.test(line)).map((line) => `  | ${line.slice(0, 300)}`);
  const detail = rest.length <= 12 ? rest : [...rest.slice(0, 2), `  | ... ${rest.length - 12} lines left out ...`, ...rest.slice(-10)];
  return [`FAILED ${what}: ${first.slice(0, 300)}`, ...detail];
}

/** Counts of one vitest run, with the lines naming what failed. */
function countVitest(file, status) {
  if (!existsSync(file)) {
    return { passed: 0, failed: 1, skipped: 0, lines: [`FAILED no test report at ${file}: the runner did not finish (exit ${status})`] };
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const lines = [];
  for (const suite of report.testResults ?? []) {
    for (const test of suite.assertionResults ?? []) {
      if (test.status !== 'failed') continue;
      lines.push(...failureLines(`${relative(process.cwd(), suite.name)} > ${test.fullName}`, test.failureMessages?.[0]));
    }
  }
  const outside = errorsOutsideTests(report);
  lines.push(...outside.flat());
  let failed = (report.numFailedTests ?? 0) + outside.length;
  if (status !== 0 && failed === 0) {
    lines.push(`FAILED vitest exited ${status} for ${file} without a failed test: see its output above`);
    failed = 1;
  }
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  return { passed: report.numPassedTests ?? 0, failed, skipped, lines, report };
}

/** The count line for the given arguments, and the lines naming each failure. */
export function summarize(args) {
  const total = { passed: 0, failed: 0, skipped: 0, lines: [] };
  const runs = [];
  let out;
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    if (flag === '--out') {
      out = args[++i];
      continue;
    }
    const [name, statusText] = [args[++i], args[++i]];
    const status = Number(statusText);
    if ((flag !== '--step' && flag !== '--vitest') || name === undefined || !Number.isInteger(status)) {
      throw new Error(`test-summary: expected --step NAME STATUS or --vitest REPORT STATUS, got ${[flag, name, statusText].join(' ')}`);
    }
    if (flag === '--step') {
      if (status !== 0) {
        total.failed++;
        total.lines.push(`FAILED step ${name} (exit ${status}): see its output above`);
      }
      continue;
    }
    const counts = countVitest(name, status);
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.skipped += counts.skipped;
    total.lines.push(...counts.lines);
    if (counts.report !== undefined) runs.push({ label: basename(name, '.json'), report: counts.report });
  }
  const count = `${total.passed} passed, ${total.failed} failed${total.skipped > 0 ? `, ${total.skipped} skipped` : ''}`;
  return { count, failed: total.failed, lines: total.lines, timing: slowFileLines(runs), out };
}

// Run as a script (the unit test imports `summarize` instead).
if (import.meta.main) {
  const { count, failed, lines, timing, out } = summarize(process.argv.slice(2));
  for (const line of [...timing, ...lines]) console.log(line);
  if (out !== undefined) writeFileSync(out, `${count}\n`);
  console.log(count);
  process.exit(failed > 0 ? 1 : 0);
}
