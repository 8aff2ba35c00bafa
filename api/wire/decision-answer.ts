import type { PaymentDecision } from '../../src/decision/decide-payment.js';
import type { DecidedGateway } from '../../src/generated/schema-types.js';
import type { DeciderErrorEnvelope } from './decider-error-envelope.js';
import { decisionFailureEnvelope } from './decision-failure-envelope.js';
import { toDecidedGateway } from './to-decided-gateway.js';

/** A decision in 1.4.x wire form: the DecidedGateway, or the decider envelope to send with HTTP 400. */
export type WireDecision = { readonly ok: true; readonly decided: DecidedGateway } | { readonly ok: false; readonly envelope: DeciderErrorEnvelope };

/** Maps the decision use case's outcome to the wire; 1.4.x reports no latency for network-only decisions. */
export function toWireDecision(outcome: PaymentDecision): WireDecision {
  if (!outcome.ok) return { ok: false, envelope: decisionFailureEnvelope(outcome.failure, outcome.request.merchantId) };
  const latency = outcome.request.rankingAlgorithm === 'NTW_BASED_ROUTING' ? null : outcome.latencyMs;
  return { ok: true, decided: toDecidedGateway(outcome.decision, latency) };
}
