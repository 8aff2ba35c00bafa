import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { McpServerConfig } from '../../../src/generation/mcp/mcp-server-config.js';

export const echoServerPath = fileURLToPath(new URL('../../fixtures/mcp/echo-server.ts', import.meta.url));
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** Our fixture server over stdio, run by the same Node binary (type stripping runs the .ts directly). */
export function echoStdioConfig(extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return { command: process.execPath, args: [echoServerPath], transport: 'stdio', ...extra };
}

export async function makeTempDir(prefix: string): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), `switchyard-${prefix}-`));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export interface RunningHttpFixture {
  readonly baseUrl: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts the fixture in `http` or `sse` mode on a free port and resolves once it prints its port. */
export async function startHttpFixture(mode: 'http' | 'sse', env: Record<string, string> = {}): Promise<RunningHttpFixture> {
  const child = spawn(process.execPath, [echoServerPath, mode], { env: { ...process.env, ...env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    lines.on('line', (line) => {
      const match = /^LISTENING (\d+)$/.exec(line);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`fixture exited with ${code}: ${stderr}`)));
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
