import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UserConfirmationRequiredError } from '../../../../src/generation/errors/user-confirmation-required-error.js';
import type { ToolDefinition } from '../../../../src/generation/tool-definition.js';
import { nodeFileSystem } from '../../../../src/adapters/fs/node-file-system.js';
import { createBuiltInTools, type BuiltInToolsOptions } from '../../../../src/generation/tools/built-in-tools.js';
import { executeTool } from '../../../../src/generation/tools/confirmation.js';

let base: string;
let root: string;
let sibling: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'sy-tools-')));
  root = join(base, 'a');
  sibling = join(base, 'ab');
  await mkdir(root);
  await mkdir(sibling);
  await writeFile(join(sibling, 'secret.txt'), 'sibling secret');
  await writeFile(join(base, 'outside.txt'), 'outside secret');
  await writeFile(join(root, 'hello.txt'), 'hello world');
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const granted = { toolCallId: 't1', confirmedTools: new Set(['writeFile']) };
const plain = { toolCallId: 't1' };

// Through the node:fs adapter: the confinement these tests prove is the sandbox's and the adapter's together.
function tools(options: Partial<Omit<BuiltInToolsOptions, 'fileSystem'>> = {}): Record<string, ToolDefinition> {
  return Object.fromEntries(createBuiltInTools({ root, fileSystem: nodeFileSystem, ...options }).map((tool) => [tool.name, tool]));
}

type Result = { success: boolean; error?: string } & Record<string, unknown>;
async function call(tool: ToolDefinition | undefined, input: unknown, context = plain): Promise<Result> {
  return (await tool!.execute(input, context)) as Result;
}

describe('createBuiltInTools', () => {
  it('returns the six tools with JSON schemas and source built-in; writeFile needs confirmation', () => {
    const list = createBuiltInTools({ root, fileSystem: nodeFileSystem });
    expect(list.map((tool) => tool.name)).toEqual(['getCurrentTime', 'readFile', 'listDirectory', 'calculateMath', 'writeFile', 'searchFiles']);
    for (const tool of list) {
      expect(tool.source).toBe('built-in');
      expect(tool.inputSchema.type).toBe('object');
    }
    expect(list.find((tool) => tool.name === 'writeFile')?.requiresConfirmation).toBe(true);
    expect(
      createBuiltInTools({ root, fileSystem: nodeFileSystem, writeRequiresConfirmation: false }).find((tool) => tool.name === 'writeFile')
        ?.requiresConfirmation,
    ).toBe(false);
  });

  it('rejects invalid limits', () => {
    expect(() => createBuiltInTools({ root, fileSystem: nodeFileSystem, maxReadBytes: 0 })).toThrow(/maxReadBytes/);
  });
});

describe('getCurrentTime', () => {
  const now = () => new Date('2026-03-01T12:00:00Z');
  it('formats in the given zone', async () => {
    const result = await call(tools({ now }).getCurrentTime, { timezone: 'Asia/Kolkata' });
    expect(result).toMatchObject({ success: true, timezone: 'Asia/Kolkata', iso: '2026-03-01T12:00:00.000Z', timestamp: Date.parse('2026-03-01T12:00:00Z') });
    expect(result.time).toContain('5:30:00 PM');
  });
  it('works without arguments and refuses an unknown zone', async () => {
    expect((await call(tools({ now }).getCurrentTime, {})).success).toBe(true);
    expect(await call(tools({ now }).getCurrentTime, { timezone: 'Mars/Olympus' })).toEqual({ success: false, error: 'unknown time zone "Mars/Olympus"' });
  });
});

describe('calculateMath', () => {
  it('rounds to precision (default 2)', async () => {
    expect(await call(tools().calculateMath, { expression: '10 / 3' })).toEqual({ success: true, expression: '10 / 3', result: 3.33, type: 'number' });
    // biome-ignore lint/suspicious/noApproximativeNumericConstant: the expected answer is π rounded to the 4 places asked for
    expect((await call(tools().calculateMath, { expression: 'Math.PI', precision: 4 })).result).toBe(3.1416);
  });
  it('reports hostile input as a failure, never throws', async () => {
    const result = await call(tools().calculateMath, { expression: 'process.exit()' });
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/unknown identifier/);
    expect((await call(tools().calculateMath, { expression: '1', precision: 99 })).success).toBe(false);
    expect((await call(tools().calculateMath, { expression: '1/0' })).error).toMatch(/division by zero/);
  });
});

describe('readFile', () => {
  it('reads a file inside the root (relative and absolute)', async () => {
    const result = await call(tools().readFile, { path: 'hello.txt' });
    expect(result).toMatchObject({ success: true, content: 'hello world', size: 11, path: join(root, 'hello.txt') });
    expect((await call(tools().readFile, { path: join(root, 'hello.txt') })).content).toBe('hello world');
  });

  it.each([
    ['..', 'parent'],
    ['../outside.txt', 'dot-dot'],
    ['../../../../../../etc/passwd', 'deep dot-dot'],
    ['/etc/passwd', 'absolute outside'],
  ])('refuses %s (%s)', async (path) => {
    const result = await call(tools().readFile, { path });
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/outside the allowed directory/);
  });

  it('refuses a sibling directory that shares the root prefix', async () => {
    for (const path of ['../ab/secret.txt', join(sibling, 'secret.txt'), `${root}/../ab/secret.txt`]) {
      const result = await call(tools().readFile, { path });
      expect(result).toMatchObject({ success: false });
      expect(result.error).toMatch(/outside/);
    }
  });

  it('refuses a symlinked file and a symlinked directory that lead outside', async () => {
    await symlink(join(base, 'outside.txt'), join(root, 'link.txt'));
    await symlink(sibling, join(root, 'linkdir'));
    expect((await call(tools().readFile, { path: 'link.txt' })).error).toMatch(/resolves outside/);
    expect((await call(tools().readFile, { path: 'linkdir/secret.txt' })).error).toMatch(/resolves outside/);
    expect((await call(tools().listDirectory, { path: 'linkdir' })).error).toMatch(/resolves outside/);
  });

  it('follows a symlink that stays inside the root', async () => {
    await symlink(join(root, 'hello.txt'), join(root, 'inner-link.txt'));
    expect((await call(tools().readFile, { path: 'inner-link.txt' })).content).toBe('hello world');
  });

  it('refuses NUL bytes, overlong paths, non-strings and missing files', async () => {
    expect((await call(tools().readFile, { path: 'hello.txt\0.png' })).error).toMatch(/NUL/);
    expect((await call(tools().readFile, { path: 'x/'.repeat(3000) })).error).toMatch(/longer than 4096/);
    expect((await call(tools().readFile, { path: 'y'.repeat(300) })).error).toMatch(/segment is longer/);
    expect((await call(tools().readFile, { path: 42 })).error).toMatch(/non-empty string/);
    expect((await call(tools().readFile, 'hello.txt')).error).toMatch(/arguments must be an object/);
    expect((await call(tools().readFile, { path: 'nope.txt' })).error).toMatch(/does not exist/);
    expect((await call(tools().readFile, { path: '.' })).error).toMatch(/not a regular file/);
  });

  it('refuses a FIFO without blocking, for reading and writing', async () => {
    execFileSync('mkfifo', [join(root, 'pipe')]);
    expect((await call(tools().readFile, { path: 'pipe' })).error).toBe('path is not a regular file');
    expect((await call(tools().writeFile, { path: 'pipe', content: 'x', mode: 'append' }, granted)).error).toBe('path is not a regular file');
  });

  it('caps the size read', async () => {
    await writeFile(join(root, 'big.txt'), 'x'.repeat(101));
    expect((await call(tools({ maxReadBytes: 100 }).readFile, { path: 'big.txt' })).error).toBe('file is 101 bytes; the limit is 100');
    expect((await call(tools({ maxReadBytes: 101 }).readFile, { path: 'big.txt' })).success).toBe(true);
  });
});

describe('listDirectory', () => {
  it('lists entries sorted, hiding dot files unless asked', async () => {
    await writeFile(join(root, '.hidden'), '');
    await mkdir(join(root, 'sub'));
    const result = await call(tools().listDirectory, { path: '.' });
    expect(result).toMatchObject({ success: true, path: root, count: 2, truncated: false });
    expect(result.items).toEqual([
      expect.objectContaining({ name: 'hello.txt', type: 'file', size: 11 }),
      expect.objectContaining({ name: 'sub', type: 'directory' }),
    ]);
    expect((await call(tools().listDirectory, { path: '.', includeHidden: true })).count).toBe(3);
  });

  it('caps the number of entries', async () => {
    for (let i = 0; i < 5; i++) await writeFile(join(root, `f${i}.txt`), '');
    const result = await call(tools({ maxListEntries: 3 }).listDirectory, { path: '.' });
    expect(result).toMatchObject({ count: 3, truncated: true, total: 6 });
  });

  it('refuses outside paths and files', async () => {
    expect((await call(tools().listDirectory, { path: '/' })).success).toBe(false);
    expect((await call(tools().listDirectory, { path: '../ab' })).success).toBe(false);
    expect((await call(tools().listDirectory, { path: 'hello.txt' })).error).toBe('path is not a directory');
  });
});

describe('writeFile', () => {
  it('needs the grant: a result for the model, an error for direct execution', async () => {
    expect(await call(tools().writeFile, { path: 'new.txt', content: 'x' })).toEqual({ success: false, error: 'USER_CONFIRMATION_REQUIRED' });
    await expect(executeTool(tools().writeFile!, { path: 'new.txt', content: 'x' })).rejects.toBeInstanceOf(UserConfirmationRequiredError);
    await expect(readFile(join(root, 'new.txt'))).rejects.toThrow();
    expect(await executeTool(tools().writeFile!, { path: 'new.txt', content: 'x' }, { confirmedTools: new Set(['writeFile']) })).toMatchObject({
      success: true,
    });
  });

  it('creates, refuses to re-create, overwrites and appends', async () => {
    const write = tools().writeFile;
    expect(await call(write, { path: 'new.txt', content: 'one' }, granted)).toEqual({
      success: true,
      path: join(root, 'new.txt'),
      mode: 'create',
      size: 3,
      written: true,
    });
    expect((await call(write, { path: 'new.txt', content: 'two' }, granted)).error).toMatch(/already exists/);
    await call(write, { path: 'new.txt', content: 'two', mode: 'overwrite' }, granted);
    await call(write, { path: 'new.txt', content: '+3', mode: 'append' }, granted);
    expect(await readFile(join(root, 'new.txt'), 'utf8')).toBe('two+3');
    expect((await call(write, { path: 'new.txt', content: '', mode: 'delete' }, granted)).error).toMatch(/mode must be/);
  });

  it('refuses escapes, sibling prefixes and missing parents', async () => {
    const write = tools().writeFile;
    for (const path of ['../evil.txt', '../ab/evil.txt', join(sibling, 'evil.txt'), '/tmp/evil-switchyard.txt']) {
      const result = await call(write, { path, content: 'x' }, granted);
      expect(result.success, path).toBe(false);
    }
    expect((await call(write, { path: 'missing/dir/x.txt', content: 'x' }, granted)).error).toMatch(/does not exist/);
    expect((await call(write, { path: '.', content: 'x' }, granted)).error).toMatch(/must name a file/);
  });

  it('never writes through a symlink at the target or a symlinked parent', async () => {
    await symlink(join(base, 'outside.txt'), join(root, 'link.txt'));
    await symlink(join(base, 'not-yet.txt'), join(root, 'dangling.txt'));
    await symlink(sibling, join(root, 'linkdir'));
    const write = tools().writeFile;
    for (const mode of ['create', 'overwrite', 'append']) {
      expect((await call(write, { path: 'link.txt', content: 'pwned', mode }, granted)).error).toMatch(/symbolic link/);
      expect((await call(write, { path: 'dangling.txt', content: 'pwned', mode }, granted)).error).toMatch(/symbolic link/);
      expect((await call(write, { path: 'linkdir/x.txt', content: 'pwned', mode }, granted)).error).toMatch(/resolves outside/);
    }
    expect(await readFile(join(base, 'outside.txt'), 'utf8')).toBe('outside secret');
    await expect(readFile(join(base, 'not-yet.txt'))).rejects.toThrow();
  });

  it('caps the content size', async () => {
    expect((await call(tools({ maxWriteBytes: 4 }).writeFile, { path: 'n.txt', content: '12345' }, granted)).error).toBe('content is 5 bytes; the limit is 4');
  });
});

describe('searchFiles', () => {
  beforeEach(async () => {
    await mkdir(join(root, 'src', 'deep', 'deeper'), { recursive: true });
    await writeFile(join(root, 'src', 'a.ts'), 'a');
    await writeFile(join(root, 'src', 'B.TS'), 'b');
    await writeFile(join(root, 'src', 'deep', 'c.ts'), 'c');
    await writeFile(join(root, 'src', 'deep', 'deeper', 'd.ts'), 'd');
    await writeFile(join(root, 'src', 'a.tsx'), 'x');
  });

  it('matches wildcards case-insensitively over the whole name, recursively', async () => {
    const result = await call(tools().searchFiles, { pattern: '*.ts' });
    expect((result.matches as { name: string }[]).map((match) => match.name).sort()).toEqual(['B.TS', 'a.ts', 'c.ts', 'd.ts']);
    expect(result).toMatchObject({ success: true, directory: root, pattern: '*.ts', count: 4, truncated: false });
    expect((await call(tools().searchFiles, { pattern: '?.ts', recursive: false, directory: 'src' })).count).toBe(2);
    expect((await call(tools().searchFiles, { pattern: 'a.t?x', path: 'src' })).count).toBe(1);
  });

  it('bounds depth and results', async () => {
    expect((await call(tools({ maxSearchDepth: 2 }).searchFiles, { pattern: '*.ts' })).count).toBe(3);
    const capped = await call(tools({ maxSearchResults: 2 }).searchFiles, { pattern: '*.ts' });
    expect(capped).toMatchObject({ count: 2, truncated: true });
  });

  it('does not descend into symlinks nor start outside the root', async () => {
    await writeFile(join(sibling, 'z.ts'), 'z');
    await symlink(sibling, join(root, 'src', 'linkdir'));
    expect((await call(tools().searchFiles, { pattern: 'z.ts' })).count).toBe(0);
    expect((await call(tools().searchFiles, { pattern: '*', path: '../ab' })).success).toBe(false);
    expect((await call(tools().searchFiles, { pattern: '*', directory: '/etc' })).success).toBe(false);
    expect((await call(tools().searchFiles, { pattern: '*', path: 'src', directory: 'other' })).success).toBe(false);
    expect((await call(tools().searchFiles, { pattern: '' })).success).toBe(false);
  });

  it('treats regex characters in the pattern literally', async () => {
    await writeFile(join(root, 'a+b.txt'), '');
    expect((await call(tools().searchFiles, { pattern: 'a+b.txt' })).count).toBe(1);
    expect((await call(tools().searchFiles, { pattern: 'a.+' })).count).toBe(0);
  });
});
