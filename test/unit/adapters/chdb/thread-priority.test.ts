import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { niceOf, ownThreadNice } from '../../../helpers/thread-nice.js';

const moduleUrl = new URL('../../../../src/adapters/chdb/thread-priority.ts', import.meta.url).href;

/** Runs lowerThreadPriority(nice) in a thread of its own (never in the test's): its answer and that thread's niceness after. */
function inThread(nice: number): Promise<{ lowered: boolean; nice: number }> {
  const source = `
    const { parentPort } = require('node:worker_threads');
    const { readFileSync } = require('node:fs');
    import(${JSON.stringify(moduleUrl)}).then((m) => {
      const lowered = m.lowerThreadPriority(${nice});
      parentPort.postMessage({ lowered, stat: readFileSync('/proc/thread-self/stat', 'utf8') });
    });`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true });
    worker.once('message', (message: { lowered: boolean; stat: string }) => {
      resolve({ lowered: message.lowered, nice: niceOf(message.stat) });
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

describe('lowerThreadPriority', () => {
  it('lowers the calling thread only', async () => {
    const before = ownThreadNice();
    expect(await inThread(before + 7)).toEqual({ lowered: true, nice: before + 7 });
    expect(ownThreadNice()).toBe(before);
  });

  it('answers false, and leaves the thread as it was, for a niceness the kernel refuses', async () => {
    // Past the range (−20…19) setPriority throws; the thread keeps the process's priority.
    const before = ownThreadNice();
    expect(await inThread(99)).toEqual({ lowered: false, nice: before });
  });
});
