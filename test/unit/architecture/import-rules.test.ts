import { cruise } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

describe('import rules (ARCHITECTURE.md)', () => {
  it('keeps the domain free of infrastructure and every module free of cycles', async () => {
    // @ts-expect-error: a CommonJS config file without type declarations
    const config = (await import('../../../.dependency-cruiser.cjs')).default as { forbidden: unknown[]; options: Record<string, unknown> };
    const result = await cruise(['src', 'api', 'workers', 'cli'], { ...config.options, ruleSet: { forbidden: config.forbidden } } as never);
    const output = result.output as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
    expect(output.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  }, 60_000);
});
