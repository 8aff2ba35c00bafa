// vitest's JSON reporter plus the run's unhandled errors (`unhandledErrors`: their messages), which
// the stock report leaves out: an unhandled rejection fails the run while every test passed, and
// scripts/test-summary.mjs must count it. Used as `--reporter=./scripts/vitest-json-reporter.mjs`
// with `--outputFile.json=FILE`.
import { JsonReporter } from 'vitest/reporters';

export default class JsonWithErrorsReporter extends JsonReporter {
  unhandled = [];

  async onFinished(files, errors = [], coverageMap) {
    this.unhandled = errors.map((error) => String(error?.stack ?? error?.message ?? error));
    await super.onFinished(files, errors, coverageMap);
  }

  async writeReport(report) {
    await super.writeReport(JSON.stringify({ ...JSON.parse(report), unhandledErrors: this.unhandled }));
  }
}
