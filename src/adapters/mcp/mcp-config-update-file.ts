import { constants } from 'node:fs';
import { chmod, copyFile, readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { MCPConfigurationError } from '../../generation/errors/mcp-errors.js';
import {
  type ConfigValidationProblem,
  isPlainObject,
  mergeConfigDocument,
  type ResolvedConfigUpdateOptions,
  validateConfigDocument,
} from '../../generation/mcp/mcp-config-update.js';
import { readRaw, serialise, writeAtomic } from './mcp-config-file.js';

/** What the file step of an update did (the manager adds what it loaded). */
export interface ConfigFileUpdate {
  readonly backupPath?: string;
  readonly removedBackups: readonly string[];
  readonly config: Record<string, unknown>;
}

const backupMarker = '.backup.';

/** `<file>.backup.<UTC timestamp>`, sortable by name; a second backup within the same millisecond gets `-<n>`. */
async function makeBackup(path: string, now: Date): Promise<string> {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  for (let attempt = 0; ; attempt += 1) {
    const candidate = `${path}${backupMarker}${stamp}${attempt === 0 ? '' : `-${attempt}`}`;
    try {
      await copyFile(path, candidate, constants.COPYFILE_EXCL);
      await chmod(candidate, 0o600);
      return candidate;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new MCPConfigurationError(`Cannot back up MCP config file ${path}: ${(error as Error).message}`, path, error);
      }
    }
  }
}

/** Deletes all but the newest `keep` backups of `path`; returns the deleted paths. */
async function pruneBackups(path: string, keep: number): Promise<string[]> {
  const directory = dirname(path);
  const prefix = `${basename(path)}${backupMarker}`;
  const backups = (await readdir(directory)).filter((name) => name.startsWith(prefix)).sort();
  const stale = backups.slice(0, Math.max(0, backups.length - keep)).map((name) => join(directory, name));
  await Promise.all(stale.map((file) => rm(file, { force: true })));
  return stale;
}

/**
 * Applies an update to `.mcp-config.json` under the file's write queue: merge by strategy,
 * validate, back up the old file, write atomically (0600), prune old backups. Nothing is written
 * (and no backup made) when validation fails.
 */
export function updateMcpConfigDocument(
  path: string,
  update: Readonly<Record<string, unknown>>,
  options: ResolvedConfigUpdateOptions,
  now: () => Date = () => new Date(),
): Promise<ConfigFileUpdate> {
  return serialise(path, async () => {
    if (!isPlainObject(update)) throw new MCPConfigurationError('An MCP config update must be a JSON object', path);
    const current = await readRaw(path);
    const next = mergeConfigDocument(current ?? {}, { ...update }, options.mergeStrategy);
    const problems: ConfigValidationProblem[] = options.validateBeforeUpdate
      ? validateConfigDocument(next)
      : isPlainObject(next['mcpServers']) || next['mcpServers'] === undefined
        ? []
        : [{ id: '(file)', error: '"mcpServers" must be an object' }];
    if (problems.length > 0) {
      await options.callbacks.onValidationError?.(problems);
      throw new MCPConfigurationError(
        `MCP config update refused, ${path} left unchanged: ${problems.map((problem) => `${problem.id}: ${problem.error}`).join('; ')}`,
        path,
      );
    }
    let backupPath: string | undefined;
    if (options.createBackup && current !== undefined) {
      backupPath = await makeBackup(path, now());
      await options.callbacks.onBackupCreated?.(backupPath);
    }
    await writeAtomic(path, next);
    const removedBackups = backupPath !== undefined ? await pruneBackups(path, options.backupRetention) : [];
    return { ...(backupPath !== undefined ? { backupPath } : {}), removedBackups, config: next };
  });
}
