import { describe, expect, it } from 'vitest';
import { applyVolumeHedging } from '../../../src/decision/hedging.js';
import { createSequenceRandom } from '../../../src/decision/random-source.js';

describe('applyVolumeHedging', () => {
  it('gives the top gateway 0.5 and the others 1.0 when the draw is under the hedging percent', () => {
    const scores = [0.9, 0.99, 0.8];
    expect(applyVolumeHedging(scores, 5, createSequenceRandom([0.04]))).toBe(true);
    expect(scores).toEqual([1, 0.5, 1]);
  });

  it('leaves scores unchanged when the draw is at or over the hedging percent', () => {
    const scores = [0.9, 0.99, 0.8];
    expect(applyVolumeHedging(scores, 5, createSequenceRandom([0.05]))).toBe(false);
    expect(scores).toEqual([0.9, 0.99, 0.8]);
  });

  it('hedges the first listed gateway when the top score is tied', () => {
    const scores = [0.7, 1, 1];
    applyVolumeHedging(scores, 50, createSequenceRandom([0.2]));
    expect(scores).toEqual([1, 0.5, 1]);
  });

  it('never hedges at 0 percent and always at 100 percent', () => {
    expect(applyVolumeHedging([1, 1], 0, createSequenceRandom([0]))).toBe(false);
    expect(applyVolumeHedging([1, 1], 100, createSequenceRandom([0.999999]))).toBe(true);
  });

  it('draws exactly once per call', () => {
    const random = createSequenceRandom([0.9, 0.9]);
    applyVolumeHedging([1, 0.5], 5, random);
    expect(random.drawn()).toBe(1);
  });

  it('does not hedge a single gateway', () => {
    const scores = [0.9];
    expect(applyVolumeHedging(scores, 100, createSequenceRandom([0]))).toBe(false);
    expect(scores).toEqual([0.9]);
  });
});
