import { existsSync, readFileSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order files start in (issue 35): the longest first, so the files that run side by side end
 * close together instead of one long file starting last and running alone. vitest's own order
 * needs its results cache (node_modules/.vite/vitest), which a fresh clone does not have; without it
 * files start largest first, and a short file holding a slow test (a guard-matrix shard, the
 * OpenAPI fuzz) started late enough to be the run's tail.
 *
 * Durations come from test/file-durations.json (seconds per `project:path`, written from a run's
 * JSON reports by `node scripts/slow-files.mjs --write-durations test/file-durations.json
 * .run/vitest-main.json .run/vitest-fault.json`). A file not listed there counts as short (half a
 * second: new files are usually short) and goes among the short ones by size. Files of a project that
 * runs in a single process (fault, browser) keep vitest's own order.
 */
const durationsFile = new URL('./file-durations.json', import.meta.url);
const unlistedSeconds = 0.5;

function loadDurations(): Record<string, number> {
  if (!existsSync(durationsFile)) return {};
  const parsed = JSON.parse(readFileSync(durationsFile, 'utf8')) as { seconds?: Record<string, number> };
  return parsed.seconds ?? {};
}

export default class DurationSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const serial = files.filter((spec) => spec.project.config.poolOptions?.forks?.singleFork === true);
    const parallel = files.filter((spec) => spec.project.config.poolOptions?.forks?.singleFork !== true);
    const durations = loadDurations();
    const root = this.ctx.config.root;
    const keyed = parallel.map((spec) => {
      const path = relative(root, spec.moduleId).split('\\').join('/');
      return { spec, seconds: durations[`${spec.project.name}:${path}`] ?? unlistedSeconds, size: statSync(spec.moduleId).size };
    });
    keyed.sort((a, b) => b.seconds - a.seconds || b.size - a.size);
    return [...keyed.map(({ spec }) => spec), ...(await super.sort(serial))];
  }
}
