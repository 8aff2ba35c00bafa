import { describe, expect, it } from 'vitest';
import { detectCardNumbers } from '../../../src/guardrails/card-number.js';
import { detectCredentials } from '../../../src/guardrails/credential-detector.js';
import type { Detection } from '../../../src/guardrails/detection.js';
import { detectEmails, detectIbans, detectIpAddresses, detectNationalIds, detectPhones } from '../../../src/guardrails/pii-detectors.js';
import { evaluateCorpus, loadCorpus } from '../../fixtures/guardrails/evaluate-corpus.mjs';

const detectAll = (text: string): Detection[] => [
  ...detectCardNumbers(text),
  ...detectEmails(text),
  ...detectPhones(text),
  ...detectIbans(text),
  ...detectNationalIds(text),
  ...detectIpAddresses(text),
  ...detectCredentials(text),
];

describe('the labelled guardrails corpus', () => {
  const corpus = loadCorpus();
  const scores = evaluateCorpus(corpus, detectAll, ['card', 'email', 'phone', 'iban', 'national-id', 'ip', 'credential']);

  it('holds true positives and near misses of card numbers', () => {
    const cards = corpus.filter((entry) => entry.labels.some((label) => label.kind === 'card'));
    const nearMisses = corpus.filter((entry) => entry.labels.length === 0 && /\d{4}/.test(entry.text));
    expect(cards.length).toBeGreaterThanOrEqual(200);
    expect(nearMisses.length).toBeGreaterThanOrEqual(250);
  });

  it('finds every card number (recall 100 %) with precision of at least 99 %', () => {
    const card = scores['card']!;
    expect(card.misses).toEqual([]);
    expect(card.recall).toBe(1);
    expect(card.precision).toBeGreaterThanOrEqual(0.99);
  });

  it('finds every labelled email, IBAN, national id, IP address and credential without false alarms', () => {
    for (const kind of ['email', 'iban', 'national-id', 'ip', 'credential']) {
      expect({ kind, misses: scores[kind]!.misses, falseAlarms: scores[kind]!.falseAlarms }).toEqual({ kind, misses: [], falseAlarms: [] });
    }
  });

  it('finds every labelled phone number', () => {
    expect(scores['phone']!.misses).toEqual([]);
  });
});
