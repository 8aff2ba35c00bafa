import type { DecideGatewayRequest, LegacyDeciderRequest, PaymentInfo } from '../generated/schema-types.js';
import type { LegacyTxn } from './filters/legacy-txn.js';

/** What a legacy (Euler DomainDeciderRequest) body means to this service. */
export interface LegacyDecisionInput {
  readonly merchantId: string;
  /** Every merchant id the body names (they must all be the caller's own). */
  readonly namedMerchants: readonly string[];
  readonly txn: LegacyTxn;
  readonly enforcedGateways: readonly string[] | null;
  /** The /decide-gateway request the survivors of the filter chain are scored with. */
  readonly decideRequest: (eligibleGatewayList: readonly string[]) => DecideGatewayRequest;
}

type Udfs = NonNullable<LegacyDeciderRequest['orderReference']['udfs']>;

/** Euler sends udfs as an array or as `{udf1…udfN}`; both become the array `paymentInfo.udfs` is. */
function udfArrayOf(udfs: Udfs | null | undefined): (string | null)[] | null {
  if (udfs === null || udfs === undefined) return null;
  if (Array.isArray(udfs)) return [...udfs];
  const out: (string | null)[] = [];
  for (const [name, value] of Object.entries(udfs)) {
    const index = Number(name.slice('udf'.length)) - 1;
    while (out.length < index) out.push(null);
    out[index] = value ?? null;
  }
  return out;
}

const upper = (value: string | null | undefined): string | null => (value === null || value === undefined || value === '' ? null : value.toUpperCase());

/**
 * Maps the legacy body onto the filter chain's view and a /decide-gateway request: the payment is
 * `txnDetail.txnUuid`, amounts and currency come from txnDetail with orderReference as fallback,
 * the order type from `txnObjectType` → `orderType` → ORDER_PAYMENT, the method from txnCardInfo →
 * `sourceObject`. Scoring is SR-based (SR v3 windows, as `/decide-gateway` with SR_BASED_ROUTING).
 */
export function fromLegacyRequest(body: LegacyDeciderRequest): LegacyDecisionInput {
  const { orderReference: order, txnDetail: detail, txnCardInfo: card, merchantAccount } = body;
  const merchantId = merchantAccount.merchantId;
  const namedMerchants = [...new Set([merchantId, detail.merchantId, order.merchantId].filter((id): id is string => typeof id === 'string'))];
  const currency = detail.currency ?? order.currency;
  const paymentType = detail.txnObjectType ?? order.orderType ?? 'ORDER_PAYMENT';
  const paymentMethodType = card.paymentMethodType.toUpperCase();
  const paymentMethod = card.paymentMethod ?? detail.sourceObject ?? null;
  const isEmi = detail.isEmi === true;

  const paymentInfo: PaymentInfo = {
    paymentId: detail.txnUuid,
    amount: detail.txnAmount ?? order.amount,
    currency,
    paymentType,
    paymentMethodType,
    paymentMethod: paymentMethod ?? '',
    customerId: order.customerId ?? null,
    udfs: udfArrayOf(order.udfs),
    preferredGateway: order.preferredGateway ?? null,
    isEmi,
    emiBank: detail.emiBank ?? null,
    emiTenure: detail.emiTenure ?? null,
    paymentSource: card.paymentSource ?? null,
    authType: card.authType ?? null,
    cardIssuerBankName: card.cardIssuerBankName ?? null,
    cardIsin: card.cardIsin ?? null,
    cardType: card.cardType ?? null,
    cardSwitchProvider: card.cardSwitchProvider ?? null,
  };

  return {
    merchantId,
    namedMerchants,
    txn: {
      currency,
      paymentMethodType,
      paymentMethod: upper(paymentMethod),
      cardBrand: upper(card.cardSwitchProvider),
      authType: card.authType ?? null,
      isEmi,
      emiBank: detail.emiBank ?? null,
      emiTenure: detail.emiTenure ?? null,
      txnObjectType: paymentType,
    },
    enforcedGateways: body.enforceGatewayList ?? null,
    decideRequest: (eligibleGatewayList) => ({
      merchantId,
      eligibleGatewayList: [...eligibleGatewayList],
      rankingAlgorithm: 'SR_BASED_ROUTING',
      eliminationEnabled: false,
      paymentInfo,
    }),
  };
}
