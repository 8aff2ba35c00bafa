import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';

interface RuleConfig {
  readonly forbidden: unknown[];
  readonly options: Record<string, unknown>;
}

interface Violation {
  readonly rule: { readonly name: string };
  readonly from: string;
  readonly to: string;
}

// @ts-expect-error: a CommonJS config file without type declarations
const config = (await import('../../../.dependency-cruiser.cjs')).default as RuleConfig;

async function violationsIn(roots: readonly string[], baseDir?: string): Promise<Violation[]> {
  const options = baseDir === undefined ? config.options : { ...config.options, baseDir };
  const result = await cruise([...roots], { ...options, validate: true, ruleSet: { forbidden: config.forbidden } } as never);
  return (result.output as { summary: { violations: Violation[] } }).summary.violations;
}

const trees: string[] = [];
afterAll(() => {
  for (const tree of trees) rmSync(tree, { recursive: true, force: true });
});

/** A throwaway repository layout: `files` maps repo-relative paths to their source. */
function treeOf(files: Readonly<Record<string, string>>): string {
  const root = mkdtempSync(join(tmpdir(), 'sy-import-rules-'));
  trees.push(root);
  // The repository's module settings, so `./b.js` resolves to `./b.ts` as it does in the real tree.
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }));
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), source);
  }
  return root;
}

describe('import rules (ARCHITECTURE.md)', () => {
  it('hold on the whole tree: no violation in src, api, workers or cli', async () => {
    const violations = await violationsIn(['src', 'api', 'workers', 'cli']);
    expect(violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  }, 60_000);

  // Each rule is shown to bite: a two-file tree that breaks it is reported under its name.
  const broken: readonly { rule: string; files: Readonly<Record<string, string>> }[] = [
    {
      rule: 'api-not-to-cli',
      files: { 'api/app.ts': "import { root } from '../cli/root.js';\nexport const app = root;\n", 'cli/root.ts': 'export const root = 1;\n' },
    },
    {
      rule: 'api-not-to-workers',
      files: { 'api/app.ts': "import { sink } from '../workers/sink.js';\nexport const app = sink;\n", 'workers/sink.ts': 'export const sink = 1;\n' },
    },
    {
      rule: 'workers-not-to-api',
      files: { 'workers/sink.ts': "import { app } from '../api/app.js';\nexport const sink = app;\n", 'api/app.ts': 'export const app = 1;\n' },
    },
    {
      rule: 'src-not-to-outer-rooms',
      files: {
        'src/domain.ts': "import { helper } from '../test/helper.js';\nexport const domain = helper;\n",
        'test/helper.ts': 'export const helper = 1;\n',
      },
    },
    {
      rule: 'domain-not-to-adapters',
      files: {
        'src/toolkit/kit.ts': "import { Redis } from '../adapters/redis/redis.js';\nexport const kit = new Redis();\n",
        'src/adapters/redis/redis.ts': 'export class Redis {}\n',
      },
    },
    {
      rule: 'ports-not-to-features',
      files: {
        'src/ports/state-store.ts': "import type { Batch } from '../generation/batch.js';\nexport type Stored = Batch;\n",
        'src/generation/batch.ts': 'export interface Batch { id: string }\nexport const batch = 1;\n',
      },
    },
    {
      rule: 'no-circular',
      files: { 'src/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n", 'src/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n" },
    },
  ];
  for (const { rule, files } of broken) {
    it(`reports ${rule} when a module breaks it`, async () => {
      const root = treeOf(files);
      const roots = [...new Set(Object.keys(files).map((path) => path.split('/')[0] ?? path))];
      const names = (await violationsIn(roots, root)).map((violation) => violation.rule.name);
      expect(names).toContain(rule);
    }, 30_000);
  }
});
