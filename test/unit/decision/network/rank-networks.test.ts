import { describe, expect, it } from 'vitest';
import { SwitchyardError } from '../../../../src/errors/switchyard-error.js';
import { defaultNetworkFeeTable } from '../../../../src/decision/network/network-fee-table.js';
import { parseCoBadgedMetadata, type CoBadgedCard } from '../../../../src/decision/network/parse-co-badged-metadata.js';
import { rankNetworks } from '../../../../src/decision/network/rank-networks.js';
import { coBadgedMetadata, regulatedWithFraud } from './metadata-fixture.js';

function cardOf(metadata: string): CoBadgedCard {
  const parsed = parseCoBadgedMetadata(metadata, defaultNetworkFeeTable);
  if (!parsed.ok) throw new Error(parsed.detail);
  return parsed.card;
}

describe('rankNetworks', () => {
  it('reproduces §5.2 example 1: amount 1000, unregulated, VISA/NYCE/PULSE/STAR', () => {
    const ranked = rankNetworks(cardOf(coBadgedMetadata()), 1000, defaultNetworkFeeTable);
    expect(ranked.map((item) => item.network)).toEqual(['STAR', 'VISA', 'PULSE', 'NYCE']);
    expect(ranked.map((item) => item.fee)).toEqual([expect.closeTo(33.8, 9), expect.closeTo(34.875, 9), expect.closeTo(35.0, 9), expect.closeTo(36.8125, 9)]);
    expect(ranked.map((item) => item.savingPercentage)).toEqual([0.11, 0, 0, 0]);
  });

  it('reproduces §5.2 example 2: amount 100, regulated with the fraud-check name', () => {
    const card = cardOf(coBadgedMetadata({ is_regulated: true, regulated_name: regulatedWithFraud }));
    const ranked = rankNetworks(card, 100, defaultNetworkFeeTable);
    expect(ranked.map((item) => item.network)).toEqual(['NYCE', 'STAR', 'VISA', 'PULSE']);
    expect(ranked.map((item) => item.fee)).toEqual([expect.closeTo(2.86, 9), expect.closeTo(2.86, 9), expect.closeTo(3.3975, 9), expect.closeTo(4.36, 9)]);
    expect(ranked.map((item) => item.savingPercentage)).toEqual([0.54, 0.54, 0, 0]);
  });

  it('keeps the listed order for equal fees', () => {
    const card = cardOf(coBadgedMetadata({ is_regulated: true, co_badged_card_networks: ['STAR', 'NYCE', 'VISA'] }));
    expect(rankNetworks(card, 100, defaultNetworkFeeTable).map((item) => item.network)).toEqual(['STAR', 'NYCE', 'VISA']);
  });

  it('charges a regulated card without the fraud-check name no fraud-check fee', () => {
    const card = cardOf(coBadgedMetadata({ is_regulated: true, regulated_name: 'GOVERNMENT EXEMPT INTERCHANGE FEE' }));
    const star = rankNetworks(card, 100, defaultNetworkFeeTable).find((item) => item.network === 'STAR');
    expect(star?.fee).toBeCloseTo(1.86, 9);
  });

  it('saves nothing when the cheapest network is global', () => {
    const card = cardOf(coBadgedMetadata({ is_regulated: true, co_badged_card_networks: ['PULSE', 'VISA'] }));
    const ranked = rankNetworks(card, 100, defaultNetworkFeeTable);
    expect(ranked.map((item) => [item.network, item.savingPercentage])).toEqual([
      ['VISA', 0],
      ['PULSE', 0],
    ]);
  });

  it('saves nothing when no global network is listed', () => {
    const card = cardOf(coBadgedMetadata({ co_badged_card_networks: ['NYCE', 'STAR'] }));
    expect(rankNetworks(card, 1000, defaultNetworkFeeTable).map((item) => item.savingPercentage)).toEqual([0, 0]);
  });

  it('saves nothing for a zero amount instead of dividing by it', () => {
    expect(rankNetworks(cardOf(coBadgedMetadata()), 0, defaultNetworkFeeTable).map((item) => item.savingPercentage)).toEqual([0, 0, 0, 0]);
  });

  it('throws SY_INTERNAL for a card that was not parsed against the same fee table', () => {
    const card: CoBadgedCard = { ...cardOf(coBadgedMetadata()), networks: ['AMEX'] };
    expect(() => rankNetworks(card, 100, defaultNetworkFeeTable)).toThrow(SwitchyardError);
  });
});
