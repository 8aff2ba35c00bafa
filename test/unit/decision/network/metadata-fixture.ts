/** Builds `paymentInfo.metadata` strings for network-routing tests (a JSON document in a string, as clients send it). */
export function coBadgedMetadata(cardData: Record<string, unknown> = {}, top: Record<string, unknown> = {}): string {
  return JSON.stringify({
    merchant_category_code: 'merchant_category_code_0001',
    acquirer_country: 'US',
    co_badged_card_data: {
      co_badged_card_networks: ['VISA', 'NYCE', 'PULSE', 'STAR'],
      issuer_country: 'US',
      is_regulated: false,
      regulated_name: null,
      card_type: 'debit',
      ...cardData,
    },
    ...top,
  });
}

export const regulatedWithFraud = 'GOVERNMENT NON-EXEMPT INTERCHANGE FEE (WITH FRAUD)';
