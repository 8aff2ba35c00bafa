import { describe, expect, it } from 'vitest';
import { costScenarioOf, dimensionValue } from '../../../src/costs/cost-scenario.js';

describe('dimensionValue', () => {
  it('trims and lower-cases a value, the same on every call, and reads a blank or missing one as unknown', () => {
    for (let call = 0; call < 3; call += 1) {
      expect(dimensionValue(' VISA ')).toBe('visa');
      expect(dimensionValue('USD')).toBe('usd');
      expect(dimensionValue('   ')).toBeUndefined();
      expect(dimensionValue('')).toBeUndefined();
      expect(dimensionValue(null)).toBeUndefined();
      expect(dimensionValue(undefined)).toBeUndefined();
    }
  });

  it('normalises a value longer than any it remembers, and keeps answering once more values were seen than it keeps', () => {
    const long = ` ${'Premium-'.repeat(20)} `;
    expect(dimensionValue(long)).toBe('premium-'.repeat(20));
    for (let index = 0; index < 3000; index += 1) expect(dimensionValue(`Net${index}`)).toBe(`net${index}`);
    expect(dimensionValue('Net0')).toBe('net0');
  });
});

describe('costScenarioOf', () => {
  it('keeps the known dimensions, normalised, and folds the issuer country to its region', () => {
    expect(costScenarioOf({ amount: 100, currency: 'EUR', cardNetwork: 'Visa', funding: 'CREDIT', program: ' ', issuerCountry: 'DE' })).toEqual({
      amount: 100,
      currency: 'eur',
      cardNetwork: 'visa',
      funding: 'credit',
      issuerCountry: 'de',
      issuerRegion: 'eu',
    });
  });
});
