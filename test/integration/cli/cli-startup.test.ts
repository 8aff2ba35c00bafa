import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDistBuilt } from '../pipeline/switchyard-process.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const recorder = pathToFileURL(join(root, 'test/fixtures/cli/record-loaded-modules.mjs')).href;
const workDir = mkdtempSync(join(tmpdir(), 'sytest-cli-startup-'));
let runs = 0;

/** The module URLs `switchyard <args>` loaded (the built binary, as a user runs it), and its stdout. */
async function modulesLoadedBy(args: readonly string[]): Promise<{ stdout: string; modules: string[] }> {
  const list = join(workDir, `modules-${++runs}.json`);
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', recorder, join(root, 'dist/cli/main.js'), ...args], {
    cwd: workDir,
    env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'silent', NODE_DISABLE_COMPILE_CACHE: '1', RECORD_MODULES_TO: list },
  });
  return { stdout, modules: JSON.parse(readFileSync(list, 'utf8')) as string[] };
}

/** Packages and modules of ours that only a command's action may load (cli/program.ts says why). */
const actionOnly = [
  /node_modules\/@platformatic\/kafka\//,
  /node_modules\/bullmq\//,
  /node_modules\/@clickhouse\/client\//,
  /node_modules\/@modelcontextprotocol\/sdk\//,
  /node_modules\/@ai-sdk\//,
  /node_modules\/@opentelemetry\/sdk-/,
  /node_modules\/fastify\//,
  /dist\/cli\/start-service\.js$/,
  /dist\/cli\/run-worker\.js$/,
  /dist\/cli\/create-toolkit\.js$/,
];

describe('switchyard start-up', () => {
  beforeAll(ensureDistBuilt, 300_000);
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it.each(['--version', '--help', 'worker --help', 'serve --help'])(
    '`switchyard %s` loads none of the service, worker, toolkit, provider or MCP code',
    async (line: string) => {
      const { stdout, modules } = await modulesLoadedBy(line.split(' '));
      expect(stdout.length).toBeGreaterThan(0);
      expect(modules.filter((url) => actionOnly.some((pattern) => pattern.test(url)))).toEqual([]);
      // The whole service is some 3,200 modules; the command line alone about 260.
      expect(modules.length).toBeLessThan(600);
    },
  );

  it('loads the toolkit for a command that uses it (the recorder sees lazily loaded modules)', async () => {
    const { modules } = await modulesLoadedBy(['models', 'list', '--format', 'json']);
    expect(modules.some((url) => /dist\/cli\/create-toolkit\.js$/.test(url))).toBe(true);
  });
});
