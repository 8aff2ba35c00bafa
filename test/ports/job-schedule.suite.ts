import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobQueue, QueuedJob } from '../../src/ports/job-queue.js';

/** Two JobQueue instances on one backend and namespace (two replicas); the embedded queue has one. */
export interface JobScheduleFixture {
  readonly first: JobQueue;
  readonly second: JobQueue;
  dispose(): Promise<void>;
}

interface Run {
  readonly job: QueuedJob<{ readonly tag: string }>;
  readonly replica: string;
  readonly startedAt: number;
  endedAt: number;
}

/** Collects runs; `reach(n)` resolves on the n-th finished run (an event, not a timer). */
function runLog() {
  const runs: Run[] = [];
  let waiter: { count: number; resolve: () => void } | undefined;
  return {
    runs,
    finished(): void {
      const done = runs.filter((run) => run.endedAt > 0).length;
      if (waiter !== undefined && done >= waiter.count) waiter.resolve();
    },
    reach(count: number, timeoutMs = 30_000): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${count} runs not reached within ${timeoutMs} ms (got ${runs.length})`)), timeoutMs);
        waiter = {
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
        this.finished();
      });
    },
  };
}

/**
 * JobQueue.schedule (src/ports/job-queue.ts) against every adapter: a schedule added by two replicas
 * runs once per tick on one of them, its runs never overlap (a run longer than the interval makes
 * the next ticks skip), each run names its tick, and unschedule stops it.
 */
export function jobScheduleSuite(name: string, open: () => Promise<JobScheduleFixture>, everyMs: number): void {
  describe(`JobQueue.schedule (${name})`, () => {
    let fixture: JobScheduleFixture;

    beforeEach(async () => {
      fixture = await open();
    });

    afterEach(async () => {
      await fixture.dispose();
    });

    it('runs once per tick across two replicas that both add the schedule, never overlapping, each run naming its tick', async () => {
      const log = runLog();
      const consume = (queue: JobQueue, replica: string) =>
        queue.process<{ tag: string }>(
          'autopilot-test',
          async (job) => {
            const run: Run = { job, replica, startedAt: Date.now(), endedAt: 0 };
            log.runs.push(run);
            // A run of about a third of the interval: long enough that an overlap would show.
            await new Promise((resolve) => setTimeout(resolve, Math.floor(everyMs / 3)));
            run.endedAt = Date.now();
            log.finished();
          },
          { concurrency: 2 },
        );
      const consumers = [await consume(fixture.first, 'a'), await consume(fixture.second, 'b')];
      await fixture.first.schedule('autopilot-test', { id: 'calibrate', everyMs }, { tag: 'x' });
      await fixture.second.schedule('autopilot-test', { id: 'calibrate', everyMs }, { tag: 'x' });
      await log.reach(4);
      await Promise.all(consumers.map((consumer) => consumer.close()));

      const runs = log.runs.filter((run) => run.endedAt > 0);
      const ticks = runs.map((run) => run.job.scheduledAt);
      expect(ticks.every((tick) => typeof tick === 'number' && tick > 0)).toBe(true);
      // Once per tick: no tick ran twice, whichever replica took it.
      expect(new Set(ticks).size).toBe(ticks.length);
      expect(runs.map((run) => run.job.id)).toEqual(runs.map((run) => `calibrate@${run.job.scheduledAt}`));
      expect(runs.every((run) => run.job.data.tag === 'x')).toBe(true);
      // No overlap: each run starts after the one before it ended.
      const ordered = [...runs].sort((x, y) => x.startedAt - y.startedAt);
      for (let i = 1; i < ordered.length; i++) expect(ordered[i]!.startedAt).toBeGreaterThanOrEqual(ordered[i - 1]!.endedAt);
      // Ticks are about one interval apart (a tick may be skipped, never doubled).
      const sortedTicks = [...(ticks as number[])].sort((x, y) => x - y);
      for (let i = 1; i < sortedTicks.length; i++) expect(sortedTicks[i]! - sortedTicks[i - 1]!).toBeGreaterThanOrEqual(everyMs * 0.5);
    });

    it('skips ticks while a run lasts longer than the interval', async () => {
      const started: number[] = [];
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let firstStarted!: () => void;
      const first = new Promise<void>((resolve) => (firstStarted = resolve));
      const consumers = [fixture.first, fixture.second].map((queue) =>
        queue.process<{ tag: string }>(
          'autopilot-long',
          async (job) => {
            started.push(job.scheduledAt ?? 0);
            if (started.length === 1) {
              firstStarted();
              await held;
            }
          },
          { concurrency: 2 },
        ),
      );
      const opened = await Promise.all(consumers);
      await fixture.first.schedule('autopilot-long', { id: 'slow', everyMs }, { tag: 'y' });
      await first;
      // Three intervals pass while the first run holds (measured on the adapter's ticks, not asserted on time).
      await new Promise((resolve) => setTimeout(resolve, everyMs * 3));
      expect(started).toHaveLength(1);
      release();
      await fixture.first.unschedule('autopilot-long', 'slow');
      await Promise.all(opened.map((consumer) => consumer.close()));
      expect(await fixture.first.unschedule('autopilot-long', 'slow')).toBe(false);
    });
  });
}
