import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * Issue 26: every model-provider SDK the package depends on is imported by a provider adapter (an
 * unused one, like `@ai-sdk/huggingface` was, only adds install weight and a false promise).
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));

function sourceText(folder: string): string {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts'))
    .map((path) => readFileSync(join(root, folder, path), 'utf8'))
    .join('\n');
}

describe('provider SDK dependencies', () => {
  it('lists only @ai-sdk packages some source file imports', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const sources = [sourceText('src'), sourceText('api'), sourceText('cli'), sourceText('workers')].join('\n');
    const unused = Object.keys(pkg.dependencies)
      .filter((name) => name.startsWith('@ai-sdk/'))
      .filter((name) => !new RegExp(`from '${name}(/[^']*)?'`).test(sources));
    expect(unused).toEqual([]);
  });
});
