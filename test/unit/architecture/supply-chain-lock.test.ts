import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * OWASP LLM Top 10 2026 LLM04 (supply chain; LLM03 in 2025): what gets installed is what was
 * reviewed. The lock file (v3) is in step with package.json, every locked package carries a sha512
 * integrity hash npm checks on install, and no dependency comes from a git URL, a tarball URL or a
 * local path (which a lock cannot pin by registry version).
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  lockfileVersion: number;
  packages: Record<
    string,
    { version?: string; integrity?: string; link?: boolean; dependencies?: Record<string, string>; devDependencies?: Record<string, string> }
  >;
};

describe('dependency supply chain', () => {
  it('locks exactly the dependencies package.json declares (lockfile v3)', () => {
    expect(lock.lockfileVersion).toBe(3);
    expect(lock.packages['']?.dependencies).toEqual(pkg.dependencies);
    expect(lock.packages['']?.devDependencies).toEqual(pkg.devDependencies);
    for (const name of [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)])
      expect(lock.packages[`node_modules/${name}`]?.version, name).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('pins every locked package by a sha512 integrity hash', () => {
    const unpinned = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && entry.link !== true && !/^sha512-/.test(entry.integrity ?? ''))
      .map(([path]) => path);
    expect(unpinned).toEqual([]);
  });

  it('takes no dependency from a git URL, tarball URL or local path', () => {
    const specs = { ...pkg.dependencies, ...pkg.devDependencies };
    const offRegistry = Object.entries(specs).filter(([, spec]) => /^(git|github:|https?:|file:|link:)|\//.test(spec));
    expect(offRegistry).toEqual([]);
  });
});
