import type { CardNetwork } from './card-network.js';

/** One fee component: `amount · percentage / 100 + fixedAmount`, in the payment's amount units. */
export interface FeeRate {
  readonly percentage: number;
  readonly fixedAmount: number;
}

/**
 * The debit-routing fee model: interchange (regulated or per merchant category) plus a network fee.
 * A network missing from `networkFee`, or from `nonRegulated[mcc]` for an unregulated card, has no
 * fee data, and a decision that needs it fails with CO_BADGED_NETWORK_NOT_FOUND (as upstream does).
 */
export interface NetworkFeeTable {
  /** Interchange for Durbin-regulated issuers, whatever the network. */
  readonly regulated: FeeRate;
  /** Added to regulated interchange when the card's regulated name is `regulatedNameWithFraudCheck`. */
  readonly fraudCheckFee: number;
  readonly regulatedNameWithFraudCheck: string;
  /** Interchange for unregulated issuers, by merchant category code, then network. */
  readonly nonRegulated: Readonly<Record<string, Readonly<Partial<Record<CardNetwork, FeeRate>>>>>;
  readonly networkFee: Readonly<Partial<Record<CardNetwork, FeeRate>>>;
}

/**
 * decision-engine's `[debit_routing_config]` (config/development.toml, identical in v1.4.1 and HEAD;
 * reference §5.2). AMEX, DINERS and RUPAY have no fees there on purpose: upstream rejects them.
 */
export const defaultNetworkFeeTable: NetworkFeeTable = Object.freeze({
  regulated: Object.freeze({ percentage: 0.05, fixedAmount: 0.21 }),
  fraudCheckFee: 1.0,
  regulatedNameWithFraudCheck: 'GOVERNMENT NON-EXEMPT INTERCHANGE FEE (WITH FRAUD)',
  nonRegulated: Object.freeze({
    merchant_category_code_0001: Object.freeze({
      VISA: Object.freeze({ percentage: 1.65, fixedAmount: 15.0 }),
      MASTERCARD: Object.freeze({ percentage: 1.65, fixedAmount: 15.0 }),
      ACCEL: Object.freeze({ percentage: 1.55, fixedAmount: 4.0 }),
      NYCE: Object.freeze({ percentage: 1.3, fixedAmount: 21.3125 }),
      PULSE: Object.freeze({ percentage: 1.6, fixedAmount: 15.0 }),
      STAR: Object.freeze({ percentage: 1.63, fixedAmount: 15.0 }),
    }),
  }),
  networkFee: Object.freeze({
    VISA: Object.freeze({ percentage: 0.1375, fixedAmount: 2.0 }),
    MASTERCARD: Object.freeze({ percentage: 0.15, fixedAmount: 4.0 }),
    ACCEL: Object.freeze({ percentage: 0.0, fixedAmount: 4.0 }),
    NYCE: Object.freeze({ percentage: 0.1, fixedAmount: 1.5 }),
    PULSE: Object.freeze({ percentage: 0.1, fixedAmount: 3.0 }),
    STAR: Object.freeze({ percentage: 0.1, fixedAmount: 1.5 }),
  }),
});
