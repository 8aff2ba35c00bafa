import { join } from 'node:path';
import type { ToolDefinition } from '../tool-definition.js';
import { type PathSandbox, SandboxPathError } from './sandbox-path.js';

/** Limits of the file tools; the defaults are documented on `createBuiltInTools`. */
export interface FileToolLimits {
  readonly maxReadBytes: number;
  readonly maxWriteBytes: number;
  readonly maxListEntries: number;
  readonly maxSearchResults: number;
  readonly maxSearchDepth: number;
  /** Directory entries a single search may visit, so a huge tree cannot pin the event loop. */
  readonly maxSearchVisited: number;
}

export type ToolResult = { readonly success: true } & Record<string, unknown>;
export interface ToolFailure {
  readonly success: false;
  readonly error: string;
}

export function failure(error: unknown): ToolFailure {
  if (error instanceof SandboxPathError) return { success: false, error: error.message };
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EEXIST') return { success: false, error: "File already exists. Use 'overwrite' or 'append' mode to modify it." };
  if (code === 'ELOOP') return { success: false, error: 'refusing to follow a symbolic link' };
  if (code === 'EACCES' || code === 'EPERM') return { success: false, error: 'permission denied' };
  if (code === 'EISDIR') return { success: false, error: 'path is a directory' };
  if (code === 'ENOTDIR') return { success: false, error: 'path is not a directory' };
  if (code === 'ENXIO') return { success: false, error: 'path is not a regular file' };
  return { success: false, error: error instanceof Error ? error.message : String(error) };
}

/** The arguments object, or a failure naming what is wrong with it. */
export function argsObject(input: unknown): Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new SandboxPathError('arguments must be an object');
  return input as Record<string, unknown>;
}

function optionalBoolean(args: Record<string, unknown>, key: string, fallback: boolean): boolean {
  const value = args[key];
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new SandboxPathError(`${key} must be a boolean`);
  return value;
}

/** `*` and `?` wildcards, everything else literal, matched against the whole name, case-insensitive. */
export function wildcardToRegExp(pattern: string): RegExp {
  const body = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 'i');
}

const objectSchema = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required, additionalProperties: false });

export function readFileTool(sandbox: PathSandbox, limits: FileToolLimits): ToolDefinition {
  return {
    name: 'readFile',
    description: `Read a UTF-8 text file inside the working directory (at most ${limits.maxReadBytes} bytes).`,
    inputSchema: objectSchema({ path: { type: 'string', description: 'File path, relative to the working directory' } }, ['path']),
    source: 'built-in',
    async execute(input) {
      try {
        const real = await sandbox.resolveExisting(argsObject(input).path);
        // The real path has no symlinks left; readRegularFile refuses one swapped in meanwhile (ELOOP).
        const read = await sandbox.fileSystem.readRegularFile(real, limits.maxReadBytes);
        if (read.outcome === 'not-regular') return { success: false, error: 'path is not a regular file' };
        if (read.outcome === 'too-large') return { success: false, error: `file is ${read.size} bytes; the limit is ${limits.maxReadBytes}` };
        const content = Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength).toString('utf8');
        return { success: true, content, size: read.bytes.byteLength, path: real, lastModified: read.modifiedAt.toISOString() };
      } catch (error) {
        return failure(error);
      }
    },
  };
}

export function listDirectoryTool(sandbox: PathSandbox, limits: FileToolLimits): ToolDefinition {
  return {
    name: 'listDirectory',
    description: `List the entries of a directory inside the working directory (at most ${limits.maxListEntries}).`,
    inputSchema: objectSchema(
      { path: { type: 'string', description: 'Directory path, relative to the working directory' }, includeHidden: { type: 'boolean', default: false } },
      ['path'],
    ),
    source: 'built-in',
    async execute(input) {
      try {
        const args = argsObject(input);
        const includeHidden = optionalBoolean(args, 'includeHidden', false);
        const real = await sandbox.resolveExisting(args.path);
        if ((await sandbox.fileSystem.stat(real)).kind !== 'directory') return { success: false, error: 'path is not a directory' };
        const names = (await sandbox.fileSystem.list(real))
          .map((entry) => entry.name)
          .filter((name) => includeHidden || !name.startsWith('.'))
          .sort();
        const shown = names.slice(0, limits.maxListEntries);
        const items = [];
        for (const name of shown) {
          // lstat: a symlink is reported as such and never followed out of the root.
          // An entry gone since the listing is skipped, not an error.
          const info = await sandbox.fileSystem.lstat(join(real, name)).catch(() => undefined);
          if (info === undefined) continue;
          const type = info.kind === 'directory' ? 'directory' : info.kind === 'symlink' ? 'symlink' : 'file';
          items.push({ name, type, ...(type === 'file' ? { size: info.size } : {}), lastModified: info.modifiedAt.toISOString() });
        }
        return { success: true, path: real, items, count: items.length, truncated: names.length > shown.length, total: names.length };
      } catch (error) {
        return failure(error);
      }
    },
  };
}

export function writeFileTool(sandbox: PathSandbox, limits: FileToolLimits, requiresConfirmation: boolean): ToolDefinition {
  return {
    name: 'writeFile',
    description:
      "Write a UTF-8 text file inside the working directory. mode 'create' (default) refuses an existing file; 'overwrite' replaces it; 'append' adds to it.",
    inputSchema: objectSchema(
      {
        path: { type: 'string', description: 'File path, relative to the working directory' },
        content: { type: 'string' },
        mode: { type: 'string', enum: ['create', 'overwrite', 'append'], default: 'create' },
      },
      ['path', 'content'],
    ),
    source: 'built-in',
    requiresConfirmation,
    async execute(input) {
      try {
        const args = argsObject(input);
        const mode = args.mode ?? 'create';
        if (mode !== 'create' && mode !== 'overwrite' && mode !== 'append') return { success: false, error: "mode must be 'create', 'overwrite' or 'append'" };
        if (typeof args.content !== 'string') return { success: false, error: 'content must be a string' };
        const bytes = Buffer.from(args.content, 'utf8');
        if (bytes.length > limits.maxWriteBytes) return { success: false, error: `content is ${bytes.length} bytes; the limit is ${limits.maxWriteBytes}` };
        const target = await sandbox.resolveForWrite(args.path);
        // writeRegularFile never writes through a symlink planted at the target after the check (ELOOP).
        if ((await sandbox.fileSystem.writeRegularFile(target, bytes, mode)) === 'not-regular') return { success: false, error: 'path is not a regular file' };
        return { success: true, path: target, mode, size: bytes.length, written: true };
      } catch (error) {
        return failure(error);
      }
    },
  };
}

export function searchFilesTool(sandbox: PathSandbox, limits: FileToolLimits): ToolDefinition {
  return {
    name: 'searchFiles',
    description: `Find files whose name matches a wildcard pattern (* and ?, case-insensitive) under a directory inside the working directory (at most ${limits.maxSearchResults} matches, depth ${limits.maxSearchDepth}).`,
    inputSchema: objectSchema(
      {
        pattern: { type: 'string', description: 'File name pattern, e.g. *.ts' },
        path: { type: 'string', description: 'Directory to search (default: the working directory)' },
        directory: { type: 'string', description: 'Same as path (NeuroLink spelling)' },
        recursive: { type: 'boolean', default: true },
      },
      ['pattern'],
    ),
    source: 'built-in',
    async execute(input) {
      try {
        const args = argsObject(input);
        const pattern = args.pattern;
        if (typeof pattern !== 'string' || pattern.length === 0 || pattern.length > 256)
          return { success: false, error: 'pattern must be a string of 1 to 256 characters' };
        if (args.path !== undefined && args.directory !== undefined && args.path !== args.directory)
          return { success: false, error: 'give either path or directory, not two different values' };
        const recursive = optionalBoolean(args, 'recursive', true);
        const start = await sandbox.resolveExisting(args.path ?? args.directory ?? '.');
        if ((await sandbox.fileSystem.stat(start)).kind !== 'directory') return { success: false, error: 'path is not a directory' };
        const matcher = wildcardToRegExp(pattern);
        const matches: { name: string; path: string; size: number; lastModified: string }[] = [];
        let visited = 0;
        let truncated = false;
        // Breadth-first over real directories only: symlinked entries are never descended into.
        const queue: { dir: string; depth: number }[] = [{ dir: start, depth: 0 }];
        while (queue.length > 0 && !truncated) {
          const { dir, depth } = queue.shift() as { dir: string; depth: number };
          // A directory that vanished or cannot be read mid-search is skipped, like an empty one.
          const entries = [...(await sandbox.fileSystem.list(dir).catch(() => []))];
          entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
          for (const entry of entries) {
            if (++visited > limits.maxSearchVisited) {
              truncated = true;
              break;
            }
            const full = join(dir, entry.name);
            if (entry.kind === 'directory') {
              if (recursive && depth + 1 <= limits.maxSearchDepth) queue.push({ dir: full, depth: depth + 1 });
            } else if (entry.kind === 'file' && matcher.test(entry.name)) {
              if (matches.length >= limits.maxSearchResults) {
                truncated = true;
                break;
              }
              const info = await sandbox.fileSystem.lstat(full).catch(() => undefined);
              if (info !== undefined) matches.push({ name: entry.name, path: full, size: info.size, lastModified: info.modifiedAt.toISOString() });
            }
          }
        }
        return { success: true, directory: start, pattern, matches, count: matches.length, truncated };
      } catch (error) {
        return failure(error);
      }
    },
  };
}
