/**
 * The local files the toolkit reaches: the built-in file tools (read, write, list, search inside
 * one root) and the model registry's file (`config/models.json`: read at start, re-read when its
 * directory changes). Paths are absolute or relative to the process's working directory; callers
 * (PathSandbox) decide which paths may be reached, the port only carries out what is asked.
 *
 * Failures reject with an error carrying the POSIX `code` of the operation (`ENOENT`, `EEXIST`,
 * `ELOOP`, `EACCES`, `EPERM`, `EISDIR`, `ENOTDIR`, `ENXIO`, …): the file tools turn those codes
 * into the messages a model sees, so an adapter over something other than a disk names its
 * failures with the same codes.
 *
 * @remarks Reads and writes of file contents are whole operations (`readRegularFile`,
 * `writeRegularFile`) rather than open/handle calls: that is where the sandbox's guarantees live
 * (no final symlink followed, only regular files, a size bound checked on the opened file, no
 * waiting on a FIFO), and an adapter must keep them in one step so no path can be swapped between
 * the check and the access. No delete, rename or mkdir: no tool needs them.
 */
export interface FileSystem {
  /** The canonical absolute path: every symlink on the way resolved. Rejects (`ENOENT`) when the path does not exist. */
  realpath(path: string): Promise<string>;

  /** What is at `path` itself: a symlink is reported as one, never followed. */
  lstat(path: string): Promise<FileInfo>;

  /** What `path` leads to, following symlinks. */
  stat(path: string): Promise<FileInfo>;

  /** The entries of a directory (not `.` and `..`), each with its own kind (symlinks not followed), in no particular order. */
  list(directory: string): Promise<readonly DirectoryEntry[]>;

  /**
   * Reads a regular file whole, refusing to follow a symlink at `path` itself (`ELOOP`) and never
   * blocking on a FIFO or device (`not-regular`). The size is checked on the opened file, so a file
   * larger than `maxBytes` is not read at all (`too-large`).
   */
  readRegularFile(path: string, maxBytes: number): Promise<FileRead>;

  /**
   * Writes `bytes` to a regular file: `create` fails (`EEXIST`) when something is there,
   * `overwrite` replaces the contents, `append` adds to them; a missing file is created with mode
   * 0644 in the last two. A symlink at `path` itself is never written through (`ELOOP`), and an
   * existing entry that is not a regular file answers `not-regular`.
   */
  writeRegularFile(path: string, bytes: Uint8Array, mode: WriteMode): Promise<'written' | 'not-regular'>;

  /**
   * The file's text (UTF-8), read synchronously.
   * @remarks Synchronous on purpose: the model registry's `fromFile`/`reload` are synchronous
   * (a toolkit's constructor loads its registry), and they run at start or on a watch event,
   * never on a request path.
   */
  readTextSync(path: string): string;

  /** True when something exists at `path` (synchronous, for the same reason as `readTextSync`). */
  existsSync(path: string): boolean;

  /**
   * Calls `onChange` whenever an entry of `directory` changes, with the entry's name when the
   * platform reports it (undefined when it does not: treat it as "anything may have changed"), and
   * `onError` when watching fails. Watching a directory rather than a file follows a file that
   * editors replace by rename.
   */
  watchDirectory(directory: string, onChange: (name: string | undefined) => void, onError: (error: Error) => void): DirectoryWatch;
}

export type FileKind = 'file' | 'directory' | 'symlink' | 'other';

export interface FileInfo {
  readonly kind: FileKind;
  /** Bytes. */
  readonly size: number;
  readonly modifiedAt: Date;
}

export interface DirectoryEntry {
  readonly name: string;
  readonly kind: FileKind;
}

export type FileRead =
  | { readonly outcome: 'read'; readonly bytes: Uint8Array; readonly modifiedAt: Date }
  | { readonly outcome: 'not-regular' }
  | { readonly outcome: 'too-large'; readonly size: number };

export type WriteMode = 'create' | 'overwrite' | 'append';

export interface DirectoryWatch {
  /** Stops watching; safe to call more than once. */
  close(): void;
}
