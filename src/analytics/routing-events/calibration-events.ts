import type { CalibrationRunFact, RoutingEventsQuery } from '../../ports/analytics/routing-events.js';
import type { AutopilotCalibratedV1 } from '../../generated/schema-types.js';
import type { RoutingEvent } from './detect-leader-changes.js';

type Segment = AutopilotCalibratedV1['segments'][number];

/**
 * `calibration_applied` events from the autopilot runs that wrote the success-rate config: one per
 * segment the run created or updated (its new bucket size and hedging, and the old ones when the
 * segment had an entry before), at the run's time. The reference stores one row per retuned
 * cluster; we store one row per run with its segments in `details`, so they are expanded here.
 * A run whose `details` is not readable JSON (cut at the row's size limit: a run with thousands of
 * segments) yields no events; the run itself stays in GET /merchant-account/{id}/autopilot/runs.
 */
export function calibrationEvents(runs: readonly CalibrationRunFact[], query: RoutingEventsQuery): RoutingEvent[] {
  const events: RoutingEvent[] = [];
  for (const run of runs) {
    for (const segment of segmentsOf(run.details)) {
      if ((segment.action !== 'created' && segment.action !== 'updated') || segment.after === null) continue;
      const { segment: s } = segment;
      if (query.paymentMethodType !== null && s.paymentMethodType !== query.paymentMethodType) continue;
      if (query.paymentMethod !== null && s.paymentMethod !== query.paymentMethod) continue;
      const grain = [s.paymentMethodType, s.paymentMethod, s.cardNetwork, s.currency, s.country, s.authType].map((value) => value ?? '-');
      events.push({
        id: ['calibration_applied', query.merchantId, ...grain, run.createdAtMs].join(':'),
        event_type: 'calibration_applied',
        merchant_id: query.merchantId,
        payment_method_type: s.paymentMethodType,
        payment_method: s.paymentMethod,
        bucket_ms: run.createdAtMs,
        gateway: '',
        previous_gateway: null,
        score: null,
        previous_score: null,
        transaction_count: null,
        bucket_size: segment.after.bucketSize,
        hedging_percent: segment.after.hedgingPercent,
        ...(segment.before === null ? {} : { previous_bucket_size: segment.before.bucketSize, previous_hedging_percent: segment.before.hedgingPercent }),
        // Left out when absent, as the reference serialises them.
        ...(s.cardNetwork === null ? {} : { card_network: s.cardNetwork }),
        ...(s.currency === null ? {} : { currency: s.currency }),
        ...(s.country === null ? {} : { country: s.country }),
        ...(s.authType === null ? {} : { auth_type: s.authType }),
      });
    }
  }
  return events;
}

/** The run's segments, or none when `details` is not the whole payload (see above). */
function segmentsOf(details: string): readonly Segment[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(details);
  } catch {
    // A cut payload: documented above as yielding no events (a typed empty result, not an error).
    return [];
  }
  if (typeof parsed !== 'object' || parsed === null) return [];
  const segments = (parsed as { segments?: unknown }).segments;
  return Array.isArray(segments) ? segments.filter(isSegment) : [];
}

function isSegment(value: unknown): value is Segment {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Segment>;
  return (
    typeof candidate.action === 'string' &&
    typeof candidate.segment === 'object' &&
    candidate.segment !== null &&
    candidate.after !== undefined &&
    candidate.before !== undefined
  );
}
