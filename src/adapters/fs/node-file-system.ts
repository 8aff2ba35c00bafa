import { constants, existsSync, readFileSync, watch, type Stats } from 'node:fs';
import { lstat, open, readdir, realpath, stat } from 'node:fs/promises';
import type { DirectoryEntry, DirectoryWatch, FileKind, FileRead, FileSystem, WriteMode } from '../../ports/file-system.js';

function kindOf(entry: Pick<Stats, 'isFile' | 'isDirectory' | 'isSymbolicLink'>): FileKind {
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isDirectory()) return 'directory';
  return entry.isFile() ? 'file' : 'other';
}

const openFlagsOf: Readonly<Record<WriteMode, number>> = {
  create: constants.O_CREAT | constants.O_EXCL,
  overwrite: constants.O_CREAT | constants.O_TRUNC,
  append: constants.O_CREAT | constants.O_APPEND,
};

/**
 * The FileSystem port over node:fs. Node's own errors pass through: they already carry the POSIX
 * `code` the port promises.
 */
export const nodeFileSystem: FileSystem = {
  realpath: (path) => realpath(path),

  async lstat(path) {
    const info = await lstat(path);
    return { kind: kindOf(info), size: info.size, modifiedAt: info.mtime };
  },

  async stat(path) {
    const info = await stat(path);
    return { kind: kindOf(info), size: info.size, modifiedAt: info.mtime };
  },

  async list(directory): Promise<readonly DirectoryEntry[]> {
    const entries = await readdir(directory, { withFileTypes: true });
    return entries.map((entry) => ({ name: entry.name, kind: kindOf(entry) }));
  },

  async readRegularFile(path, maxBytes): Promise<FileRead> {
    // O_NOFOLLOW: a symlink at the path (swapped in after the caller resolved it) fails with ELOOP.
    // O_NONBLOCK: opening a FIFO must not hang the call (it is then refused as not a regular file).
    const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      const info = await handle.stat();
      if (!info.isFile()) return { outcome: 'not-regular' };
      if (info.size > maxBytes) return { outcome: 'too-large', size: info.size };
      const buffer = Buffer.alloc(info.size);
      const { bytesRead } = await handle.read(buffer, 0, info.size, 0);
      return { outcome: 'read', bytes: buffer.subarray(0, bytesRead), modifiedAt: info.mtime };
    } finally {
      await handle.close();
    }
  },

  async writeRegularFile(path, bytes, mode) {
    // O_NOFOLLOW: a symlink planted at the target after the caller's check makes open fail (ELOOP), never write outside.
    const handle = await open(path, constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | openFlagsOf[mode], 0o644);
    try {
      if (!(await handle.stat()).isFile()) return 'not-regular';
      await handle.writeFile(bytes);
      return 'written';
    } finally {
      await handle.close();
    }
  },

  readTextSync: (path) => readFileSync(path, 'utf8'),

  existsSync: (path) => existsSync(path),

  watchDirectory(directory, onChange, onError): DirectoryWatch {
    const watcher = watch(directory, (_event, name) => onChange(name === null ? undefined : name.toString()));
    watcher.on('error', onError);
    return { close: () => watcher.close() };
  },
};
