import { mkdirSync, mkdtempSync, statSync, symlinkSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serviceToolFilesRoot } from '../../../cli/create-toolkit.js';

describe('serviceToolFilesRoot (TOOL_FILES_DIR)', () => {
  let base: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'sytest-tool-root-'));
  });
  afterEach(async () => rm(base, { recursive: true, force: true }));

  it('defaults to <DATA_DIR>/tool-files, created private', () => {
    const root = serviceToolFilesRoot({ dataDir: join(base, 'data') }, join(base, 'app'));
    expect(root).toBe(join(base, 'data', 'tool-files'));
    expect(statSync(root).isDirectory()).toBe(true);
    expect(statSync(root).mode & 0o077).toBe(0);
  });

  it('takes TOOL_FILES_DIR when it holds no secrets', () => {
    expect(serviceToolFilesRoot({ dataDir: join(base, 'data'), toolFilesDir: join(base, 'shared') }, join(base, 'app'))).toBe(join(base, 'shared'));
  });

  it('refuses a directory holding DATA_DIR, naming TOOL_FILES_DIR', () => {
    expect(() => serviceToolFilesRoot({ dataDir: join(base, 'data'), toolFilesDir: base }, join(base, 'elsewhere', 'app'))).toThrow(
      /TOOL_FILES_DIR \(toolFilesDir\).*data directory/,
    );
  });

  it('refuses the working directory the .env is read from, or one above it', () => {
    const app = join(base, 'app');
    expect(() => serviceToolFilesRoot({ dataDir: join(base, 'data'), toolFilesDir: app }, app)).toThrow(/working directory/);
    expect(() => serviceToolFilesRoot({ dataDir: '/var/tmp/sytest-elsewhere', toolFilesDir: '/' }, app)).toThrow(/TOOL_FILES_DIR/);
  });

  it('refuses a symlink that leads to a directory holding DATA_DIR', () => {
    mkdirSync(join(base, 'real', 'data'), { recursive: true });
    symlinkSync(join(base, 'real'), join(base, 'link'));
    expect(() => serviceToolFilesRoot({ dataDir: join(base, 'real', 'data'), toolFilesDir: join(base, 'link') }, join(base, 'app'))).toThrow(/data directory/);
  });
});
