import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'dotenv';

// node:fs is allowed here: src/config/ is where settings are read, .env files included
// (domain-not-to-node-fs in .dependency-cruiser.cjs exempts src/config/ for that reason).

export type ToolkitEnv = Readonly<Record<string, string | undefined>>;

export interface LoadToolkitEnvOptions {
  /** Where `.env` is looked for; default the process's working directory. */
  readonly cwd?: string;
  /** The variables that win over the file; default `process.env`. */
  readonly processEnv?: ToolkitEnv;
}

/**
 * The generation toolkit's environment: `<cwd>/.env` (dotenv syntax) merged UNDER the process
 * environment, so an exported variable always beats the file. Never mutates `process.env` (unlike
 * `dotenv.config`), so two toolkits with different working directories do not leak into each
 * other. A missing file is an empty one; an unreadable one (permissions, a directory) throws.
 */
export function loadToolkitEnv(options: LoadToolkitEnvOptions = {}): ToolkitEnv {
  const cwd = options.cwd ?? process.cwd();
  const processEnv = options.processEnv ?? process.env;
  let fileVariables: Record<string, string> = {};
  try {
    fileVariables = parse(readFileSync(join(cwd, '.env')));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return Object.freeze({ ...fileVariables, ...processEnv });
}

/** The process's working directory, read here so nothing else in `src/` touches process state. */
export function processWorkingDirectory(): string {
  return process.cwd();
}
