// vitest's JSON reporter plus what the stock report leaves out:
// - `unhandledErrors`: the run's unhandled errors (their messages): an unhandled rejection fails the
//   run while every test passed, and scripts/test-summary.mjs must count it;
// - `fileTimings`: per test file its project and where its time went (milliseconds: `setup` imports
//   the setup files, `collect` imports the file and its dependencies, `run` is its hooks and tests;
//   `start` is when it began, epoch ms; `cpu` and `childCpu` its CPU time and that of the child
//   processes it waited for, from test/setup/file-cpu.ts), and `finishedAt`, so
//   scripts/slow-files.mjs can print the slowest files and each project's totals at the end of the run.
// Used as `--reporter=./scripts/vitest-json-reporter.mjs` with `--outputFile.json=FILE`.
import { relative } from 'node:path';
import { JsonReporter } from 'vitest/reporters';

export default class JsonWithErrorsReporter extends JsonReporter {
  unhandled = [];
  timings = [];

  async onFinished(files = this.ctx.state.getFiles(), errors = [], coverageMap) {
    this.unhandled = errors.map((error) => String(error?.stack ?? error?.message ?? error));
    this.timings = files.map((file) => fileTiming(file, this.ctx.config.root));
    await super.onFinished(files, errors, coverageMap);
  }

  async writeReport(report) {
    const extra = { unhandledErrors: this.unhandled, fileTimings: this.timings, finishedAt: Date.now() };
    await super.writeReport(JSON.stringify({ ...JSON.parse(report), ...extra }));
  }
}

/** One file's project and durations (ms), rounded; a file that never ran has zeros. */
function fileTiming(file, root) {
  const setup = Math.round(file.setupDuration ?? 0);
  const collect = Math.round(file.collectDuration ?? 0);
  const run = Math.round(file.result?.duration ?? 0);
  const startedRun = file.result?.startTime;
  const cpu = file.meta?.fileCpu;
  return {
    file: relative(root, file.filepath),
    project: file.projectName ?? '',
    setup,
    collect,
    run,
    start: startedRun === undefined ? undefined : Math.round(startedRun - collect - setup),
    cpu: cpu?.ownMs,
    childCpu: cpu?.childrenMs,
  };
}
