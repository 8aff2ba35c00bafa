import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DefaultNeuroLink } from '../../../src/adapters/toolkit/default-neurolink.js';
import { type ConfigValidationProblem, MCPConfigurationError } from '../../../src/index.js';

/*
 * Issue 26, interface leftover: ConfigUpdateOptions on `NeuroLink.updateMCPConfig`, over the real
 * toolkit and real `.mcp-config.json` files in a temporary directory: backups and their retention,
 * validation before writing, the three merge strategies, callbacks, and the reload of the servers.
 */

const root = mkdtempSync(join(tmpdir(), 'toolkit-config-update-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let counter = 0;
function project(initial?: Record<string, unknown>) {
  counter += 1;
  const cwd = join(root, `p${counter}`);
  mkdirSync(cwd);
  const path = join(cwd, '.mcp-config.json');
  if (initial !== undefined) writeFileSync(path, JSON.stringify(initial, null, 2));
  const neurolink = new DefaultNeuroLink({ cwd, env: {}, builtInTools: [] });
  return {
    neurolink,
    path,
    read: () => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>,
    backups: () =>
      readdirSync(cwd)
        .filter((name) => name.startsWith('.mcp-config.json.backup.'))
        .sort(),
  };
}

const stdio = (command: string, extra: Record<string, unknown> = {}) => ({ command, args: ['--x'], ...extra });
const initial = {
  mcpServers: { alpha: stdio('alpha-bin', { env: { A: '1', B: '2' } }), beta: stdio('beta-bin') },
  global: { timeout: 4000 },
  custom: { keep: true, nested: { a: 1 } },
};

describe('NeuroLink.updateMCPConfig with ConfigUpdateOptions', () => {
  it('merge (default): replaces whole server entries and top-level keys, null removes, and backs up the old file', async () => {
    const p = project(initial);
    const result = await p.neurolink.updateMCPConfig({ mcpServers: { alpha: stdio('alpha-2'), beta: null, gamma: stdio('gamma-bin') }, custom: { other: 1 } });
    const written = p.read();
    expect(written['mcpServers']).toEqual({ alpha: stdio('alpha-2'), gamma: stdio('gamma-bin') });
    expect(written['custom']).toEqual({ other: 1 });
    expect(written['global']).toEqual({ timeout: 4000 });
    expect(result.backupPath).toBeDefined();
    expect(JSON.parse(readFileSync(result.backupPath as string, 'utf8'))).toEqual(initial);
    expect(statSync(p.path).mode & 0o777).toBe(0o600);
    expect([...result.servers].sort()).toEqual(['alpha', 'gamma']);
    expect(
      p.neurolink
        .listMCPServers()
        .map((server) => server.id)
        .sort(),
    ).toEqual(['alpha', 'gamma']);
  });

  it('deep-merge: merges objects at every depth; replace: the update becomes the file', async () => {
    const deep = project(initial);
    await deep.neurolink.updateMCPConfig(
      { mcpServers: { alpha: { env: { B: '3', A: null } } }, custom: { nested: { b: 2 } } },
      { mergeStrategy: 'deep-merge' },
    );
    const merged = deep.read();
    expect((merged['mcpServers'] as Record<string, unknown>)['alpha']).toEqual(stdio('alpha-bin', { env: { B: '3' } }));
    expect((merged['mcpServers'] as Record<string, unknown>)['beta']).toEqual(stdio('beta-bin'));
    expect(merged['custom']).toEqual({ keep: true, nested: { a: 1, b: 2 } });

    const replaced = project(initial);
    await replaced.neurolink.loadMCPConfig();
    await replaced.neurolink.updateMCPConfig({ mcpServers: { solo: stdio('solo-bin') } }, { mergeStrategy: 'replace' });
    expect(replaced.read()).toEqual({ mcpServers: { solo: stdio('solo-bin') } });
    expect(replaced.neurolink.listMCPServers().map((server) => server.id)).toEqual(['solo']);
  });

  it('validateBeforeUpdate (default): an invalid entry leaves the file untouched, makes no backup, and names every problem', async () => {
    const p = project(initial);
    const before = readFileSync(p.path, 'utf8');
    let reported: readonly ConfigValidationProblem[] = [];
    const error = await p.neurolink
      .updateMCPConfig(
        { mcpServers: { broken: { args: ['no command'] } }, global: { timeout: -1 } },
        {
          callbacks: {
            onValidationError: (problems) => {
              reported = problems;
            },
          },
        },
      )
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MCPConfigurationError);
    expect((error as Error).message).toMatch(/left unchanged: broken: .*; global: global.timeout must be a positive integer/);
    expect(reported.map((problem) => problem.id)).toEqual(['broken', 'global']);
    expect(readFileSync(p.path, 'utf8')).toBe(before);
    expect(p.backups()).toEqual([]);
  });

  it('validateBeforeUpdate: false writes the entry and reports it as skipped on reload', async () => {
    const p = project(initial);
    const result = await p.neurolink.updateMCPConfig({ mcpServers: { broken: { args: ['no command'] } } }, { validateBeforeUpdate: false });
    expect((p.read()['mcpServers'] as Record<string, unknown>)['broken']).toEqual({ args: ['no command'] });
    expect(result.errors.map((problem) => problem.id)).toEqual(['broken']);
    expect([...result.servers].sort()).toEqual(['alpha', 'beta']);
  });

  it('createBackup: false makes none; backupRetention keeps only the newest backups; callbacks see each step', async () => {
    const p = project(initial);
    const none = await p.neurolink.updateMCPConfig({ custom: { n: 0 } }, { createBackup: false });
    expect(none.backupPath).toBeUndefined();
    expect(p.backups()).toEqual([]);

    const steps: string[] = [];
    const callbacks = {
      onBackupCreated: (path: string) => void steps.push(`backup ${path.endsWith('.mcp-config.json') ? 'bad' : 'ok'}`),
      onConfigUpdated: (result: { readonly config: Readonly<Record<string, unknown>> }) =>
        void steps.push(`updated ${JSON.stringify(result.config['custom'])}`),
    };
    const made: string[] = [];
    for (let n = 1; n <= 4; n += 1) {
      const result = await p.neurolink.updateMCPConfig({ custom: { n } }, { backupRetention: 2, callbacks });
      made.push(result.backupPath as string);
    }
    expect(p.backups()).toHaveLength(2);
    expect(p.backups().map((name) => join(p.path, '..', name))).toEqual(made.slice(2));
    // The newest backup holds the file as it was before the last update.
    expect(JSON.parse(readFileSync(made[3] as string, 'utf8'))['custom']).toEqual({ n: 3 });
    expect(steps).toEqual(['backup ok', 'updated {"n":1}', 'backup ok', 'updated {"n":2}', 'backup ok', 'updated {"n":3}', 'backup ok', 'updated {"n":4}']);
  });

  it('creates the file when there is none (nothing to back up) and refuses bad options naming them', async () => {
    const p = project();
    const result = await p.neurolink.updateMCPConfig({ mcpServers: { first: stdio('first-bin') } });
    expect(result.backupPath).toBeUndefined();
    expect(p.read()).toEqual({ mcpServers: { first: stdio('first-bin') } });
    await expect(p.neurolink.updateMCPConfig({}, { mergeStrategy: 'overwrite' as never })).rejects.toThrow(
      /mergeStrategy must be one of replace, merge, deep-merge/,
    );
    await expect(p.neurolink.updateMCPConfig({}, { backupRetention: 0 })).rejects.toThrow(/backupRetention must be an integer from 1 to 100/);
  });
});
