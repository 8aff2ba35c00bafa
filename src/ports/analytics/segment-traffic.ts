/**
 * Decision traffic per routing segment over a time range: what the autopilot reads to size each
 * segment's success-rate window and hedging (src/decision/autopilot/). Counted over decision rows
 * (`decide_gateway_decision`) of one merchant.
 */

/** The low-cardinality payment dimensions a segment may be split by (the card BIN never: too many segments). */
export const segmentDimensions = ['card_network', 'currency', 'country', 'auth_type'] as const;
export type SegmentDimension = (typeof segmentDimensions)[number];

export interface SegmentTrafficQuery {
  readonly merchantId: string;
  /** Inclusive start, wall-clock ms. */
  readonly sinceMs: number;
  /** Exclusive end, wall-clock ms. */
  readonly untilMs: number;
  /** Dimensions to split by besides payment-method type and method; the others are not grouped on. */
  readonly dimensions: readonly SegmentDimension[];
}

/** One segment: its key (absent dimensions are null) and what flowed through it. */
export interface SegmentTraffic {
  readonly paymentMethodType: string;
  readonly paymentMethod: string;
  readonly cardNetwork: string | null;
  readonly currency: string | null;
  readonly country: string | null;
  readonly authType: string | null;
  /** Decisions in the range. */
  readonly volume: number;
  /** Distinct gateways decided in the range. */
  readonly gateways: number;
}
