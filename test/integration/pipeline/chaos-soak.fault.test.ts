import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ensureDistBuilt } from './switchyard-process.js';

/**
 * Issue 28, the short chaos soak: `bench/chaos.mjs --short` (its own Redis, Kafka broker and
 * ClickHouse on free ports under a private run dir, so the shared servers are never touched; two API
 * replicas and two of each worker as processes; a priced fake provider) under mixed load while a
 * seeded schedule SIGKILLs and restarts, and SIGSTOPs and SIGCONTs, an API replica, each worker kind,
 * the broker, Redis and ClickHouse, one at a time and overlapping. After the drain nothing
 * acknowledged is lost or duplicated in ClickHouse, every batch item has one outcome, each key's
 * spend counter equals its recorded costs, and neither the budget nor the rpm limit is passed.
 * CHAOS_SEED replays a schedule (the bench prints the seed and how to replay it). Starting the bench's
 * own servers and processes takes a good part of its 4–5 minutes on two shared cores.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const seed = process.env['CHAOS_SEED'] ?? '7';

interface ChaosSummary {
  readonly seed: number;
  readonly faults_injected: number;
  readonly overlapping: number;
  readonly drained: boolean;
  readonly acknowledged_decisions: number;
  readonly acknowledged_feedback: number;
  readonly batch_items: number;
  readonly lost: number;
  readonly duplicated: number;
  readonly overshoot: number;
  readonly unfinished_batches: number;
  readonly spend_mismatches: number;
  readonly rpm_violations: number;
}

function runChaos(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bench/chaos.mjs', '--short', '--seed', seed], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (output += text));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('chaos soak (short): every part killed and hung under mixed load', () => {
  it('loses nothing acknowledged, duplicates nothing, keeps spend exact and limits held', { timeout: 600_000 }, async () => {
    await ensureDistBuilt();
    const { code, output } = await runChaos();
    const line = output
      .split('\n')
      .reverse()
      .find((text) => text.startsWith('{"benchmark":"chaos"'));
    expect(line, output).toBeDefined();
    const summary = JSON.parse(line!) as ChaosSummary;
    // Every kind of target got its SIGKILL and its SIGSTOP, some of them at once.
    expect(summary.faults_injected, output).toBe(14);
    expect(summary.overlapping, output).toBeGreaterThan(0);
    expect(summary.acknowledged_decisions, output).toBeGreaterThan(0);
    expect(summary.acknowledged_feedback, output).toBeGreaterThan(0);
    expect(summary.batch_items, output).toBeGreaterThan(0);
    expect(summary, output).toMatchObject({
      drained: true,
      lost: 0,
      duplicated: 0,
      overshoot: 0,
      unfinished_batches: 0,
      spend_mismatches: 0,
      rpm_violations: 0,
    });
    expect(code, output).toBe(0);
  });
});
