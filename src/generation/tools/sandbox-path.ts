import { basename, dirname, join, resolve, sep } from 'node:path';
import type { FileSystem } from '../../ports/file-system.js';

/** Longest path string a file tool accepts (Linux PATH_MAX is 4096 bytes). */
export const maxPathLength = 4096;
/** Longest single path segment (NAME_MAX on common file systems). */
const maxSegmentLength = 255;

/** Why a path was refused; the message is safe to hand to the model (it names no host path beyond the input). */
export class SandboxPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxPathError';
  }
}

/** `child` equals `parent` or lies below it; separator-aware, so `/tmp/ab` is not inside `/tmp/a`. */
export function isInside(parent: string, child: string): boolean {
  if (child === parent) return true;
  const prefix = parent.endsWith(sep) ? parent : parent + sep;
  return child.startsWith(prefix);
}

function checkShape(input: unknown): string {
  if (typeof input !== 'string' || input.length === 0) throw new SandboxPathError('path must be a non-empty string');
  if (input.includes('\0')) throw new SandboxPathError('path must not contain NUL bytes');
  if (input.length > maxPathLength) throw new SandboxPathError(`path is longer than ${maxPathLength} characters`);
  if (input.split(/[\\/]/).some((segment) => segment.length > maxSegmentLength))
    throw new SandboxPathError(`a path segment is longer than ${maxSegmentLength} characters`);
  return input;
}

/**
 * Confines file tools to one directory. Every check runs against the root's real path, so a
 * symlinked root works, while a symlink inside it (file or parent directory) that leads out is
 * refused because the target's real path is compared, not its spelling. The file tools reach the
 * files through the same `fileSystem`, so the paths checked here are the paths they open.
 */
export class PathSandbox {
  readonly root: string;
  constructor(
    root: string,
    readonly fileSystem: FileSystem,
  ) {
    if (typeof root !== 'string' || root.length === 0) throw new SandboxPathError('root must be a non-empty path');
    this.root = resolve(root);
  }

  /** The root's real path (resolved on each call: the root may be replaced between calls). */
  async realRoot(): Promise<string> {
    return this.fileSystem.realpath(this.root);
  }

  /** Lexical resolution: absolute inputs stay absolute, relative ones are taken from the root. */
  private async lexical(input: unknown): Promise<{ candidate: string; rootReal: string }> {
    const path = checkShape(input);
    const rootReal = await this.realRoot();
    const candidate = resolve(this.root, path);
    // The spelling must already point inside the root (as given or as its real path): this refuses
    // `..` escapes and absolute paths elsewhere before touching the file system.
    if (!isInside(this.root, candidate) && !isInside(rootReal, candidate)) throw new SandboxPathError(`path "${path}" is outside the allowed directory`);
    return { candidate, rootReal };
  }

  /** An existing entry's real path, refused when it (or any symlink on the way) leads outside the root. */
  async resolveExisting(input: unknown): Promise<string> {
    const { candidate, rootReal } = await this.lexical(input);
    let real: string;
    try {
      real = await this.fileSystem.realpath(candidate);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new SandboxPathError(`path "${String(input)}" does not exist`);
      throw new SandboxPathError(`path "${String(input)}" cannot be resolved: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    if (!isInside(rootReal, real)) throw new SandboxPathError(`path "${String(input)}" resolves outside the allowed directory`);
    return real;
  }

  /**
   * Where a write to `input` lands: the real path of its (existing) parent directory joined with
   * the final name. The parent must be inside the root; the final name must not be a symlink
   * (writers open it with O_NOFOLLOW as well, which closes the race left by this check).
   */
  async resolveForWrite(input: unknown): Promise<string> {
    const { candidate, rootReal } = await this.lexical(input);
    const name = basename(candidate);
    if (candidate === this.root || candidate === rootReal || name === '' || name === '.' || name === '..') throw new SandboxPathError('path must name a file');
    let parentReal: string;
    try {
      parentReal = await this.fileSystem.realpath(dirname(candidate));
    } catch {
      throw new SandboxPathError(`the directory of "${String(input)}" does not exist`);
    }
    if (!isInside(rootReal, parentReal)) throw new SandboxPathError(`path "${String(input)}" resolves outside the allowed directory`);
    const target = join(parentReal, name);
    // A failed lstat means nothing is there yet (or it cannot be seen): the writer's open decides.
    const existing = await this.fileSystem.lstat(target).catch(() => undefined);
    if (existing?.kind === 'symlink') throw new SandboxPathError(`path "${String(input)}" is a symbolic link; refusing to write through it`);
    if (existing?.kind === 'directory') throw new SandboxPathError(`path "${String(input)}" is a directory`);
    return target;
  }
}
