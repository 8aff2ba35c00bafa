#!/usr/bin/env node
// Sums vitest's own counts from its JSON reports and prints them as the last line:
// "N passed, N failed". A suite that failed to load (no tests ran) counts as one failure.
import { existsSync, readFileSync } from 'node:fs';

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
    const ranTests = (suite.assertionResults ?? []).length > 0;
    if (suite.status === 'failed' && !ranTests) {
      console.error(`suite failed to run: ${suite.name}: ${String(suite.message ?? '').split('\n')[0]}`);
      failed++;
    }
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
