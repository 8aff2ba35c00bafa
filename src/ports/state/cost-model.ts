/**
 * What a payment costs to process at a PSP, as the decision's multi-objective post-step reads it.
 *
 * Fees are a percentage of the amount in basis points plus a flat amount in the payment's
 * currency: cost = amount × pctBps / 10 000 + fixed. The served model is one per merchant, kept in
 * the ConfigStore (`costModel`) so the hot path reads it through the config cache; the raw rows it
 * was fitted from live in ClickHouse.
 */
export interface FeeEstimate {
  readonly pctBps: number;
  readonly fixed: number;
}

/**
 * The payment attributes a fee is looked up by, lower-cased; '' is unknown. The peer clusters
 * settlement rows by connector × card network × variant × funding × issuer country × currency ×
 * interchange category; a decision knows fewer of them, so lookups fall back from the most specific
 * cluster to the connector's blended fee.
 */
export interface CostDimensions {
  readonly cardNetwork: string;
  /** Card variant / type (credit, debit, prepaid …) or the payment method when not a card. */
  readonly cardType: string;
  readonly paymentMethodType: string;
  readonly issuerCountry: string;
  readonly currency: string;
}

/** How far a fitted cluster can be trusted (the peer's coverage classes). */
export type ClusterQuality = 'GOOD' | 'THIN' | 'NON_LINEAR';

/** One fitted cluster of a connector's settlement rows. */
export interface CostCluster {
  /** `connector|network|variant|funding|issuer|currency|ic_category`, lower-case, '' for unknown parts. */
  readonly key: string;
  readonly connector: string;
  readonly cardNetwork: string;
  readonly variant: string;
  readonly funding: string;
  readonly issuerCountry: string;
  readonly currency: string;
  readonly icCategory: string;
  readonly n: number;
  readonly grossSum: number;
  readonly model: FeeEstimate;
  readonly quality: ClusterQuality;
  /** Root-mean-square error of the fit, in bps of the amount. */
  readonly bpsRmse: number;
  readonly override?: FeeEstimate & { readonly updatedAt: number };
}

/** A connector's blended fee: volume-weighted over its GOOD clusters, or a manual override. */
export interface ConnectorFee {
  readonly connector: string;
  readonly account: string;
  readonly model?: FeeEstimate;
  readonly goodGross: number;
  readonly override?: FeeEstimate & { readonly updatedAt: number };
}

/** The merchant's served cost model: what cost ingestion fitted, plus manual overrides. */
export interface CostModel {
  readonly connectors: readonly ConnectorFee[];
  readonly clusters: readonly CostCluster[];
  readonly reportDate: string | null;
  readonly updatedAt: number;
}
