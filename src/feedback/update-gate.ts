/** Recurring payments arrive long after their mandate decision, so they are exempt from the gate (§4.2). */
export const recurringPaymentTypes: ReadonlySet<string> = new Set(['MANDATE_PAYMENT', 'EMANDATE_PAYMENT', 'TPV_MANDATE_PAYMENT', 'TPV_EMANDATE_PAYMENT']);

export interface UpdateGateInput {
  readonly orderType: string;
  readonly decidedAtMs: number;
  readonly feedbackAtMs: number;
  readonly windowMs: number;
  /** `txnLatency.gatewayLatency` of the feedback, ms. */
  readonly gatewayLatencyMs: number | null;
  /** `txnLatency.gatewayLatency` of the merchant's elimination config, ms. */
  readonly latencyLimitMs: number | null;
}

export type UpdateGate = 'open' | 'outside_update_window' | 'latency_above_limit';

/**
 * Whether reward / SR-failure feedback may still change scores (§4.2): it must arrive within
 * `windowMs` of the decision and, when both the feedback and the merchant's elimination config give
 * a gateway latency, the feedback's must not exceed the config's. Late feedback describes a payment
 * the routing has long moved past. Recurring payment types pass regardless. Pending penalties never
 * go through this gate.
 *
 * @remarks Upstream also exempts NB penny-mandate registrations, which 1.4.0 requests cannot express.
 */
export function updateGateOf(input: UpdateGateInput): UpdateGate {
  if (recurringPaymentTypes.has(input.orderType)) return 'open';
  if (!(input.feedbackAtMs - input.decidedAtMs < input.windowMs)) return 'outside_update_window';
  if (input.gatewayLatencyMs !== null && input.latencyLimitMs !== null && input.gatewayLatencyMs > input.latencyLimitMs) {
    return 'latency_above_limit';
  }
  return 'open';
}
