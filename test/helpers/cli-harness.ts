import { mkdtempSync, readFileSync, writeFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { CliIo } from '../../cli/io.js';
import { runCli } from '../../cli/program.js';

export interface CliResult {
  readonly code: number | 'running';
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  readonly env?: Record<string, string>;
  readonly cwd?: string;
  readonly stdin?: string;
  readonly tty?: boolean;
  /** Sees standard error as it is written (everything so far): a test waits on what a terminal would show. */
  readonly onStderr?: (written: string) => void;
}

/** The working directories made since the last {@link removeCliWorkDirs}. */
const workDirs = new Set<string>();

/** A working directory of its own (its .env, .mcp-config.json and config/ are the test's). */
export function cliWorkDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sytest-cli-'));
  workDirs.add(dir);
  return dir;
}

/**
 * Removes every working directory made so far: a file that makes them calls
 * `afterAll(removeCliWorkDirs)` before its other hooks (after-hooks run last-registered first, so it
 * runs once the file's servers are closed). `make test` gives each run a TMPDIR of its own and
 * removes it; run alone, a file would otherwise leave a folder in /tmp per command it ran. The
 * contract files share worker threads one file at a time, so these are the ending file's only.
 */
export function removeCliWorkDirs(): void {
  for (const dir of workDirs) rmSync(dir, { recursive: true, force: true });
  workDirs.clear();
}

/**
 * A working directory whose `.mcp-config.json` (no servers yet) gives MCP servers 60 s to start
 * (`global.timeout`; the default is 5 s): a stdio server is a Node process importing the MCP SDK, and
 * on a loaded machine with test files side by side its start can take longer than 5 s. For tests of
 * what a server does, not of the start timeout.
 */
export function mcpWorkDir(): string {
  const cwd = cliWorkDir();
  writeFileSync(join(cwd, '.mcp-config.json'), JSON.stringify({ mcpServers: {}, global: { timeout: 60_000 } }));
  return cwd;
}

/**
 * Runs `switchyard <argv>` in this process with buffers for its io: the same commands, parsing,
 * formats and exit codes as the binary, minus the process wiring (cli/main.ts, covered by the
 * binary tests).
 */
export async function runSwitchyard(argv: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const cwd = options.cwd ?? cliWorkDir();
  const io: CliIo = {
    stdout: {
      write: (text) => {
        stdout += text;
      },
    },
    stderr: {
      write: (text) => {
        stderr += text;
        options.onStderr?.(stderr);
      },
    },
    readStdin: async () => options.stdin ?? '',
    stdinIsTty: options.stdin === undefined,
    stderrIsTty: options.tty === true,
    env: { LOG_LEVEL: 'silent', DATA_DIR: join(cwd, 'data'), ...options.env },
    cwd,
  };
  const { outcome } = await runCli(argv, io);
  return { code: outcome, stdout, stderr };
}

const goldenDir = fileURLToPath(new URL('../golden/cli/', import.meta.url));

/**
 * Compares output with `test/golden/cli/<name>`; `UPDATE_GOLDEN=1 npx vitest run test/contract/cli`
 * rewrites the files (review the diff before committing).
 */
export function expectGolden(name: string, actual: string): void {
  const path = join(goldenDir, name);
  if (process.env['UPDATE_GOLDEN'] === '1') {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
  }
  expect(existsSync(path), `missing golden file ${path}: run with UPDATE_GOLDEN=1 to create it`).toBe(true);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}
