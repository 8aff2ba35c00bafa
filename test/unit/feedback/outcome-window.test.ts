import { describe, expect, it } from 'vitest';
import { pushOutcome, readOutcomeWindow, type Outcome } from '../../../src/feedback/outcome-window.js';
import { scoreFromWindow } from '../../../src/decision/score-from-window.js';

function scoreAfter(outcomes: readonly Outcome[], bucketSize: number): number {
  let window: Outcome[] | undefined;
  for (const outcome of outcomes) window = pushOutcome(window, outcome, bucketSize);
  return scoreFromWindow(readOutcomeWindow(window ?? [], bucketSize));
}

describe('outcome window arithmetic (§4.3 worked numbers)', () => {
  it('scores 0.9 after one failure on a fresh window of 10', () => {
    expect(scoreAfter([0], 10)).toBe(0.9);
  });

  it('scores 0.992 after one failure on a fresh window of 125', () => {
    expect(scoreAfter([0], 125)).toBe(0.992);
  });

  it('scores 0.995 after one failure on a fresh window of 200', () => {
    expect(scoreAfter([0], 200)).toBe(0.995);
  });

  it('scores 0.5 after five failures on a fresh window of 10', () => {
    expect(scoreAfter([0, 0, 0, 0, 0], 10)).toBe(0.5);
  });

  it('scores 0 once a full window of failures has pushed every seeded success out', () => {
    expect(scoreAfter(new Array<Outcome>(10).fill(0), 10)).toBe(0);
  });

  it('recovers as successes push failures out of the window', () => {
    expect(scoreAfter([0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1], 10)).toBe(0.9);
  });
});

describe('pushOutcome', () => {
  it('seeds a missing window with bucket-size successes before pushing', () => {
    expect(pushOutcome(undefined, 0, 4)).toEqual([0, 1, 1, 1]);
  });

  it('keeps the newest outcome at the head and drops the oldest', () => {
    expect(pushOutcome([0, 1, 1, 0], 1, 4)).toEqual([1, 0, 1, 1]);
  });

  it('trims a window longer than a newly smaller bucket size', () => {
    expect(pushOutcome([0, 0, 1, 1, 1, 1], 1, 3)).toEqual([1, 0, 0]);
  });

  it('grows a window shorter than the bucket size without seeding it', () => {
    expect(pushOutcome([0], 1, 5)).toEqual([1, 0]);
  });

  it('does not modify the window it was given', () => {
    const window: Outcome[] = [1, 1];
    pushOutcome(window, 0, 2);
    expect(window).toEqual([1, 1]);
  });
});

describe('readOutcomeWindow', () => {
  it('counts successes among the newest bucket-size outcomes', () => {
    expect(readOutcomeWindow([1, 0, 1, 1, 0, 0], 4)).toEqual({ successes: 3, length: 4 });
  });

  it('reads a short window over its actual length', () => {
    expect(readOutcomeWindow([1, 0], 10)).toEqual({ successes: 1, length: 2 });
  });
});
