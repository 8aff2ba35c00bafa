#!/usr/bin/env node
// Where a test run's time went, from the `fileTimings` that scripts/vitest-json-reporter.mjs adds to
// vitest's JSON report: the slowest files and each project's totals. scripts/test-summary.mjs prints
// it at the end of every run (above the failures and the count line); by hand:
//   node scripts/slow-files.mjs [--top N] .run/vitest-main.json [.run/vitest-fault.json .run/vitest-browser.json]
// Per file, seconds = setup (setup files) + import (the file and its dependencies: collect) + run
// (its hooks and tests). Per project: files, the sum of its files' seconds (worker time: files run
// side by side, so this exceeds the wall time) and its span, from its first file's start to its last
// file's end (wall time while any of its files ran). Where the report has CPU times (the files' own
// and their waited-for child processes', test/setup/file-cpu.ts), each slowest file and project shows
// them too, and the files that used most CPU are listed: on two cores a full run is CPU-bound, so a
// file's wall time says as much about its neighbours as about itself. Reports without timings print nothing.
// `--write-durations FILE` also writes each file's seconds (`project:path`), the order
// test/duration-sequencer.ts starts files in: `--write-durations test/file-durations.json`.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const seconds = (ms) => (ms / 1000).toFixed(1);

/** A file's CPU in ms (its own and its waited-for children's), or undefined when the report has none. */
function cpuOf(file) {
  return typeof file.cpu === 'number' ? file.cpu + (file.childCpu ?? 0) : undefined;
}

/** ", cpu 5.1" (", cpu 5.1 + 3.0 in children") for a file with CPU times, else nothing. */
function cpuNote(file) {
  if (typeof file.cpu !== 'number') return '';
  return file.childCpu > 0 ? `, cpu ${seconds(file.cpu)} + ${seconds(file.childCpu)} in children` : `, cpu ${seconds(file.cpu)}`;
}

/** The report lines for these parsed vitest JSON reports ({ label, report }), `top` slowest files. */
export function slowFileLines(runs, top = 20) {
  const timed = runs.filter(({ report }) => Array.isArray(report?.fileTimings) && report.fileTimings.length > 0);
  if (timed.length === 0) return [];
  const files = timed.flatMap(({ report }) =>
    report.fileTimings.map((timing) => ({ ...timing, total: (timing.setup ?? 0) + (timing.collect ?? 0) + (timing.run ?? 0) })),
  );
  const lines = [];
  const slowest = [...files].sort((a, b) => b.total - a.total).slice(0, top);
  const projectWidth = Math.max(7, ...files.map((file) => file.project.length));
  lines.push(`Slowest ${slowest.length} of ${files.length} test files (seconds: total = import + run; import includes setup):`);
  for (const file of slowest) {
    lines.push(
      `  ${seconds(file.total).padStart(7)}  ${file.project.padEnd(projectWidth)}  ${file.file}  (import ${seconds(file.setup + file.collect)}, run ${seconds(file.run)}${cpuNote(file)})`,
    );
  }
  const costly = files.filter((file) => cpuOf(file) !== undefined).sort((a, b) => cpuOf(b) - cpuOf(a));
  if (costly.length > 0) {
    const most = costly.slice(0, Math.min(top, 10));
    lines.push(`Most CPU: ${most.length} of ${costly.length} test files (seconds of CPU: the file's own + the child processes it waited for):`);
    for (const file of most) {
      lines.push(
        `  ${seconds(cpuOf(file)).padStart(7)}  ${file.project.padEnd(projectWidth)}  ${file.file}  (own ${seconds(file.cpu)}, children ${seconds(file.childCpu ?? 0)})`,
      );
    }
  }
  lines.push('Per project (file-seconds: the sum over its files, run side by side; span: first start to last end):');
  const projects = new Map();
  for (const file of files) {
    const project = projects.get(file.project) ?? { files: 0, total: 0, cpu: undefined, first: Number.POSITIVE_INFINITY, last: 0 };
    project.files++;
    project.total += file.total;
    if (cpuOf(file) !== undefined) project.cpu = (project.cpu ?? 0) + cpuOf(file);
    if (file.start !== undefined && file.start !== null) {
      project.first = Math.min(project.first, file.start);
      project.last = Math.max(project.last, file.start + file.total);
    }
    projects.set(file.project, project);
  }
  for (const [name, project] of [...projects].sort((a, b) => b[1].total - a[1].total)) {
    const span = Number.isFinite(project.first) ? `span ${seconds(project.last - project.first).padStart(7)} s` : 'span ?';
    const cpu = project.cpu === undefined ? '' : `  cpu ${seconds(project.cpu).padStart(7)} s`;
    lines.push(`  ${name.padEnd(projectWidth)}  ${String(project.files).padStart(4)} files  ${seconds(project.total).padStart(8)} file-s  ${span}${cpu}`);
  }
  const walls = timed
    .filter(({ report }) => typeof report.startTime === 'number' && typeof report.finishedAt === 'number')
    .map(({ label, report }) => `${label} ${seconds(report.finishedAt - report.startTime)} s`);
  if (walls.length > 0) lines.push(`vitest wall time: ${walls.join(', ')}`);
  return lines;
}

/**
 * Each timed file's seconds (import + run, to a tenth) by `project:path`, longest first: the
 * document test/duration-sequencer.ts reads. Files under 0.5 s are left out (unlisted files count as
 * 0.5 s there).
 */
export function fileDurations(runs, source) {
  const seconds = {};
  const files = runs.flatMap(({ report }) => (Array.isArray(report?.fileTimings) ? report.fileTimings : []));
  const totals = files.map((file) => [`${file.project}:${file.file}`, ((file.setup ?? 0) + (file.collect ?? 0) + (file.run ?? 0)) / 1000]);
  for (const [key, total] of totals.sort((a, b) => b[1] - a[1])) if (total >= 0.5) seconds[key] = Math.round(total * 10) / 10;
  return { source, seconds };
}

// Run as a script: the reports named on the command line.
if (import.meta.main) {
  const args = process.argv.slice(2);
  let top = 20;
  let durationsOut;
  const runs = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--top') top = Number(args[++i]);
    else if (args[i] === '--write-durations') durationsOut = args[++i];
    else if (existsSync(args[i])) runs.push({ label: args[i], report: JSON.parse(readFileSync(args[i], 'utf8')) });
    else console.error(`slow-files: no report at ${args[i]}`);
  }
  for (const line of slowFileLines(runs, top)) console.log(line);
  if (durationsOut !== undefined) {
    const started = runs.map(({ report }) => report?.startTime).filter((time) => typeof time === 'number');
    const source = `seconds per test file (import + run) of the run started ${started.length > 0 ? new Date(Math.min(...started)).toISOString() : '?'}: scripts/slow-files.mjs --write-durations`;
    writeFileSync(durationsOut, `${JSON.stringify(fileDurations(runs, source), null, 2)}\n`);
  }
}
