import { MCPConfigurationError } from '../errors/mcp-errors.js';
import { validateMcpServerConfig } from './mcp-server-config.js';

/** How an update meets the current `.mcp-config.json`. */
export type ConfigMergeStrategy = 'replace' | 'merge' | 'deep-merge';

/** A problem found by validation: the server id (or `(file)`/`global`) and what is wrong. */
export interface ConfigValidationProblem {
  readonly id: string;
  readonly error: string;
}

/** What an update did. */
export interface ConfigUpdateResult {
  readonly path: string;
  /** The copy of the previous file, when one was made. */
  readonly backupPath?: string;
  /** Older backups deleted to keep `backupRetention`. */
  readonly removedBackups: readonly string[];
  /** The document now on disk. */
  readonly config: Readonly<Record<string, unknown>>;
  /** Server ids the manager now knows from the file (registered, not connected: `loadMCPConfig` connects). */
  readonly servers: readonly string[];
  /** Entries skipped as invalid (only possible with `validateBeforeUpdate: false`). */
  readonly errors: readonly ConfigValidationProblem[];
}

/**
 * The interface's ConfigUpdateOptions, for `NeuroLink.updateMCPConfig` (`.mcp-config.json`):
 * - `createBackup` (default true): copy the current file to `<file>.backup.<timestamp>` first.
 * - `validateBeforeUpdate` (default true): every server entry and `global` must be valid, or nothing
 *   is written (MCPConfigurationError listing each problem).
 * - `mergeStrategy` (default `merge`): `replace` writes the update as the whole file; `merge` replaces
 *   top-level keys and whole server entries (`null` removes a server or key); `deep-merge` merges
 *   objects at every depth (arrays are replaced, `null` removes).
 * - `backupRetention` (default 5, 1 to 100): how many backups of the file are kept, newest first.
 * - `callbacks`: told of each step; a callback that throws fails the update at that step.
 */
export interface ConfigUpdateOptions {
  readonly createBackup?: boolean;
  readonly validateBeforeUpdate?: boolean;
  readonly mergeStrategy?: ConfigMergeStrategy;
  readonly backupRetention?: number;
  readonly callbacks?: {
    readonly onBackupCreated?: (backupPath: string) => void | Promise<void>;
    readonly onValidationError?: (problems: readonly ConfigValidationProblem[]) => void | Promise<void>;
    readonly onConfigUpdated?: (result: ConfigUpdateResult) => void | Promise<void>;
  };
}

/** The options with defaults, checked (MCPConfigurationError naming the option). */
export interface ResolvedConfigUpdateOptions {
  readonly createBackup: boolean;
  readonly validateBeforeUpdate: boolean;
  readonly mergeStrategy: ConfigMergeStrategy;
  readonly backupRetention: number;
  readonly callbacks: NonNullable<ConfigUpdateOptions['callbacks']>;
}

const strategies: readonly ConfigMergeStrategy[] = ['replace', 'merge', 'deep-merge'];

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function resolveConfigUpdateOptions(options: ConfigUpdateOptions = {}): ResolvedConfigUpdateOptions {
  const bad = (message: string) => new MCPConfigurationError(`ConfigUpdateOptions: ${message}`, 'ConfigUpdateOptions');
  const mergeStrategy = options.mergeStrategy ?? 'merge';
  if (!strategies.includes(mergeStrategy)) throw bad(`mergeStrategy must be one of ${strategies.join(', ')} (got ${JSON.stringify(mergeStrategy)})`);
  const backupRetention = options.backupRetention ?? 5;
  if (!Number.isInteger(backupRetention) || backupRetention < 1 || backupRetention > 100) throw bad('backupRetention must be an integer from 1 to 100');
  for (const key of ['createBackup', 'validateBeforeUpdate'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'boolean') throw bad(`${key} must be a boolean`);
  }
  return {
    createBackup: options.createBackup ?? true,
    validateBeforeUpdate: options.validateBeforeUpdate ?? true,
    mergeStrategy,
    backupRetention,
    callbacks: options.callbacks ?? {},
  };
}

function deepMerge(base: Record<string, unknown>, update: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(update)) {
    if (value === null) delete merged[key];
    else if (isPlainObject(value) && isPlainObject(merged[key])) merged[key] = deepMerge(merged[key], value);
    else merged[key] = value;
  }
  return merged;
}

function shallowMerge(base: Record<string, unknown>, update: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(update)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/** The document an update produces from the current one (`{}` when there is no file). */
export function mergeConfigDocument(current: Record<string, unknown>, update: Record<string, unknown>, strategy: ConfigMergeStrategy): Record<string, unknown> {
  if (strategy === 'replace') return { ...update };
  if (strategy === 'deep-merge') return deepMerge(current, update);
  const merged = shallowMerge(current, update);
  if (isPlainObject(update['mcpServers'])) {
    merged['mcpServers'] = shallowMerge(isPlainObject(current['mcpServers']) ? current['mcpServers'] : {}, update['mcpServers']);
  }
  return merged;
}

/** Every problem of a document as `.mcp-config.json` (empty when valid). */
export function validateConfigDocument(document: Record<string, unknown>): ConfigValidationProblem[] {
  const problems: ConfigValidationProblem[] = [];
  const servers = document['mcpServers'];
  if (servers !== undefined && !isPlainObject(servers)) problems.push({ id: '(file)', error: '"mcpServers" must be an object' });
  for (const [id, entry] of Object.entries(isPlainObject(servers) ? servers : {})) {
    try {
      validateMcpServerConfig(id, entry);
    } catch (error) {
      problems.push({ id, error: error instanceof Error ? error.message : String(error) });
    }
  }
  const global = document['global'];
  if (global !== undefined) {
    if (!isPlainObject(global)) problems.push({ id: 'global', error: '"global" must be an object' });
    else {
      for (const key of ['timeout', 'maxConnections']) {
        const value = global[key];
        if (value !== undefined && !(typeof value === 'number' && Number.isInteger(value) && value > 0)) {
          problems.push({ id: 'global', error: `global.${key} must be a positive integer` });
        }
      }
    }
  }
  return problems;
}
