import { describe, expect, it } from 'vitest';
import { debitRoutingOutputOf } from '../../../../src/decision/network/debit-routing-output.js';
import { defaultNetworkFeeTable } from '../../../../src/decision/network/network-fee-table.js';
import { coBadgedMetadata } from './metadata-fixture.js';

describe('debitRoutingOutputOf', () => {
  it('answers the ranked networks with their savings and the card facts', () => {
    expect(debitRoutingOutputOf(coBadgedMetadata(), 1000, defaultNetworkFeeTable)).toEqual({
      ok: true,
      output: {
        coBadgedCardNetworksInfo: [
          { network: 'STAR', savingPercentage: 0.11 },
          { network: 'VISA', savingPercentage: 0 },
          { network: 'PULSE', savingPercentage: 0 },
          { network: 'NYCE', savingPercentage: 0 },
        ],
        issuerCountry: 'US',
        isRegulated: false,
        regulatedName: null,
        cardType: 'debit',
      },
    });
  });

  it('passes a metadata problem through', () => {
    expect(debitRoutingOutputOf('nope', 1000, defaultNetworkFeeTable)).toMatchObject({ ok: false, problem: 'not_json' });
  });
});
