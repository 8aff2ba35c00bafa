import { describe, expect, it } from 'vitest';
import { defaultNetworkFeeTable } from '../../../../src/decision/network/network-fee-table.js';
import { parseCoBadgedMetadata } from '../../../../src/decision/network/parse-co-badged-metadata.js';
import { coBadgedMetadata, regulatedWithFraud } from './metadata-fixture.js';

const parse = (metadata: string | null | undefined) => parseCoBadgedMetadata(metadata, defaultNetworkFeeTable);

describe('parseCoBadgedMetadata', () => {
  it('decodes a well-formed metadata string', () => {
    expect(parse(coBadgedMetadata({ regulated_name: regulatedWithFraud, is_regulated: true, card_type: 'Debit' }))).toEqual({
      ok: true,
      card: {
        merchantCategoryCode: 'merchant_category_code_0001',
        acquirerCountry: 'US',
        networks: ['VISA', 'NYCE', 'PULSE', 'STAR'],
        issuerCountry: 'US',
        isRegulated: true,
        regulatedName: regulatedWithFraud,
        cardType: 'debit',
      },
    });
  });

  it('reads network case aliases', () => {
    const result = parse(coBadgedMetadata({ co_badged_card_networks: ['visa', 'Star'] }));
    expect(result.ok && result.card.networks).toEqual(['VISA', 'STAR']);
  });

  it('treats an absent regulated name as null', () => {
    const metadata = JSON.stringify({
      merchant_category_code: 'merchant_category_code_0001',
      acquirer_country: 'US',
      co_badged_card_data: { co_badged_card_networks: ['VISA'], issuer_country: 'US', is_regulated: false, card_type: 'credit' },
    });
    const result = parse(metadata);
    expect(result.ok && result.card.regulatedName).toBeNull();
  });

  it.each([null, undefined, '', '  '])('fails with missing_metadata for %j', (metadata) => {
    expect(parse(metadata)).toMatchObject({ ok: false, problem: 'missing_metadata' });
  });

  it('fails with not_json for a string that is not JSON', () => {
    const result = parse('{"merchant_category_code":');
    expect(result).toMatchObject({ ok: false, problem: 'not_json' });
    expect(!result.ok && result.detail).toContain('not valid JSON');
  });

  it('fails with not_json for JSON that is not an object', () => {
    expect(parse('[1,2]')).toMatchObject({ ok: false, problem: 'not_json' });
    expect(parse('"text"')).toMatchObject({ ok: false, problem: 'not_json' });
  });

  it('fails with missing_co_badged_card_data when the card data is absent', () => {
    const result = parse(JSON.stringify({ merchant_category_code: 'merchant_category_code_0001', acquirer_country: 'US' }));
    expect(result).toMatchObject({ ok: false, problem: 'missing_co_badged_card_data' });
    expect(!result.ok && result.detail).toContain('co_badged_card_data');
  });

  it.each([
    [{ is_regulated: 'no' }, 'co_badged_card_data.is_regulated'],
    [{ co_badged_card_networks: [] }, 'co_badged_card_data.co_badged_card_networks'],
    [{ co_badged_card_networks: [7] }, 'co_badged_card_data.co_badged_card_networks'],
    [{ issuer_country: 1 }, 'co_badged_card_data.issuer_country'],
    [{ card_type: 'prepaid' }, 'co_badged_card_data.card_type'],
    [{ regulated_name: 5 }, 'co_badged_card_data.regulated_name'],
  ])('fails with invalid_field for card data %j, naming the field', (cardData, field) => {
    const result = parse(coBadgedMetadata(cardData));
    expect(result).toMatchObject({ ok: false, problem: 'invalid_field' });
    expect(!result.ok && result.detail).toContain(field);
  });

  it('fails with invalid_field when the merchant category code is missing', () => {
    const result = parse(coBadgedMetadata({}, { merchant_category_code: undefined }));
    expect(result).toMatchObject({ ok: false, problem: 'invalid_field' });
    expect(!result.ok && result.detail).toContain('merchant_category_code');
  });

  it('fails with unknown_network naming the network', () => {
    const result = parse(coBadgedMetadata({ co_badged_card_networks: ['VISA', 'DISCOVER'] }));
    expect(result).toEqual({ ok: false, problem: 'unknown_network', detail: 'co_badged_card_networks lists unknown network "DISCOVER"' });
  });

  it.each(['AMEX', 'DINERS', 'RUPAY'])('fails with no_fee_data for %s, which has no configured fees', (network) => {
    const result = parse(coBadgedMetadata({ co_badged_card_networks: ['STAR', network] }));
    expect(result).toMatchObject({ ok: false, problem: 'no_fee_data' });
    expect(!result.ok && result.detail).toContain(network);
  });

  it('fails with no_fee_data for an unregulated card under a merchant category without fees', () => {
    const result = parse(coBadgedMetadata({}, { merchant_category_code: 'merchant_category_code_0002' }));
    expect(result).toMatchObject({ ok: false, problem: 'no_fee_data' });
    expect(!result.ok && result.detail).toContain('merchant_category_code_0002');
  });

  it('accepts any merchant category for a regulated card, whose interchange does not depend on it', () => {
    const result = parse(coBadgedMetadata({ is_regulated: true }, { merchant_category_code: 'merchant_category_code_0002' }));
    expect(result.ok).toBe(true);
  });
});
