import { describe, expect, it } from 'vitest';
import { cardNetworkOf, isGlobalNetwork } from '../../../../src/decision/network/card-network.js';

describe('cardNetworkOf', () => {
  it('reads network names whatever their case', () => {
    expect(cardNetworkOf('VISA')).toBe('VISA');
    expect(cardNetworkOf('Visa')).toBe('VISA');
    expect(cardNetworkOf('nyce')).toBe('NYCE');
  });

  it('returns undefined for an unknown network', () => {
    expect(cardNetworkOf('DISCOVER')).toBeUndefined();
    expect(cardNetworkOf('constructor')).toBeUndefined();
  });
});

describe('isGlobalNetwork', () => {
  it.each(['VISA', 'MASTERCARD', 'AMEX', 'DINERS', 'RUPAY'] as const)('counts %s as global', (network) => {
    expect(isGlobalNetwork(network)).toBe(true);
  });

  it.each(['STAR', 'PULSE', 'ACCEL', 'NYCE'] as const)('counts %s as a local debit network', (network) => {
    expect(isGlobalNetwork(network)).toBe(false);
  });
});
