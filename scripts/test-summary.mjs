#!/usr/bin/env node
// Sums vitest's own counts from its JSON reports and prints them as the last line:
// "N passed, N failed". A suite that failed to load (no tests ran) counts as one failure. Each failed
// test is named (with its first error line) just above that line.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

let passed = 0;
let failed = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.error(`no test report at ${file}: the runner did not finish`);
    failed++;
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  for (const suite of report.testResults ?? []) {
    // Named here, just above the count, so a log cut to its last lines still says what failed.
    for (const test of suite.assertionResults ?? []) {
      if (test.status !== 'failed') continue;
      const why = String(test.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 300);
      console.log(`FAILED ${relative(process.cwd(), suite.name)} > ${test.fullName}: ${why}`);
    }
    const ranTests = (suite.assertionResults ?? []).length > 0;
    if (suite.status === 'failed' && !ranTests) {
      console.error(`suite failed to run: ${suite.name}: ${String(suite.message ?? '').split('\n')[0]}`);
      failed++;
    }
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
