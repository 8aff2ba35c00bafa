import { readFileSync } from 'node:fs';

/*
 * node:fs here, not through the FileSystem port: this reads data shipped with the code (like the
 * bundled schemas/models.json), never a user's or operator's file, so there is nothing to swap or
 * confine. It stays a .txt read on first use because importing it as a module would load 380 KB
 * into every process at import, most of which never sign anyone up. .dependency-cruiser.cjs
 * exempts this one file from domain-not-to-node-fs for that reason.
 */

/**
 * Resolved from this module's own URL so it works from `src/` (vitest, tsx) and from `dist/src/`
 * alike; the build must copy `src/auth/data/` next to the compiled file (tsc does not copy .txt).
 */
const defaultListUrl = new URL('./data/common-passwords.txt', import.meta.url);

let cached: ReadonlySet<string> | undefined;

/**
 * True when the password, lower-cased, is on the shipped list of most common passwords
 * (ASVS 5.0 asks that the top 10,000 at least are refused).
 *
 * @remarks The list (about 49,000 entries, 380 KB) is read synchronously on the first call and kept
 * for the life of the process: it never changes at run time, and reading it at import would be an
 * import side effect.
 */
export function isCommonPassword(password: string): boolean {
  cached ??= parseCommonPasswords(readFileSync(defaultListUrl, 'utf8'));
  return cached.has(password.toLowerCase());
}

/**
 * Parses the list format: one password per line, lines starting with `# ` are comments, blank
 * lines are skipped, entries are lower-cased (the file is already, this keeps the invariant).
 */
export function parseCommonPasswords(text: string): ReadonlySet<string> {
  const entries = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    if (line === '' || line.startsWith('# ')) continue;
    entries.add(line.toLowerCase());
  }
  return entries;
}
