import { describe, expect, it } from 'vitest';
import { scoreFromWindow } from '../../../src/decision/score-from-window.js';

describe('scoreFromWindow', () => {
  it('scores 1.0 when a gateway has no history', () => {
    expect(scoreFromWindow(undefined)).toBe(1);
  });

  it('scores 1.0 for an empty window', () => {
    expect(scoreFromWindow({ successes: 0, length: 0 })).toBe(1);
  });

  it('averages over the outcomes held', () => {
    expect(scoreFromWindow({ successes: 124, length: 125 })).toBe(0.992);
    expect(scoreFromWindow({ successes: 1, length: 4 })).toBe(0.25);
  });

  it('clamps to [0, 1]', () => {
    expect(scoreFromWindow({ successes: 12, length: 10 })).toBe(1);
    expect(scoreFromWindow({ successes: -1, length: 10 })).toBe(0);
  });
});
