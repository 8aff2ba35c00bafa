import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * OWASP LLM Top 10 2026 LLM10 (improper output handling; LLM05 in 2025): the dashboard shows model
 * output (the playground's streamed text, batch results, stored responses) as text nodes that Preact
 * escapes, never as markup. This holds only while no source writes HTML strings into the page: any
 * sink below would turn a model's "<img onerror=…>" into script. An offender is listed by path and line.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const htmlSinks =
  /\b(dangerouslySetInnerHTML|innerHTML|outerHTML|insertAdjacentHTML|document\.write|createContextualFragment|srcdoc)\b|\beval\s*\(|new\s+Function\s*\(/;

function dashboardSources(): string[] {
  return readdirSync(join(root, 'dashboard', 'src'), { recursive: true, encoding: 'utf8' })
    .filter((path) => /\.(tsx?|jsx?)$/.test(path))
    .map((path) => join('dashboard', 'src', path));
}

describe('dashboard output handling', () => {
  it('has sources to check (the playground among them)', () => {
    const files = dashboardSources();
    expect(files.some((path) => path.endsWith('playground-page.tsx'))).toBe(true);
    expect(files.length).toBeGreaterThan(10);
  });

  it('never writes HTML strings into the page: model output is rendered as text', () => {
    const offenders = dashboardSources().flatMap((path) =>
      readFileSync(join(root, path), 'utf8')
        .split('\n')
        .flatMap((line, index) => (htmlSinks.test(line) ? [`${path}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(offenders).toEqual([]);
  });

  it('renders the streamed playground output as a text child', () => {
    const playground = readFileSync(join(root, 'dashboard/src/pages/playground-page.tsx'), 'utf8');
    expect(playground).toMatch(/data-testid="stream-output"[^>]*>\s*\{output\}/);
  });
});
