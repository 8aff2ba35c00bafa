import { describe, expect, it, onTestFinished } from 'vitest';
import { createMemoryEventBus } from '../../../src/adapters/memory/memory-event-bus.js';
import { type EventEnvelope, topicOf } from '../../../src/events/event-envelope.js';
import { validateEvent } from '../../../src/events/validate-event.js';
import { receiveFeedback } from '../../../src/feedback/receive-feedback.js';
import { silentLogger } from '../../../src/logging/logger.js';
import { createManualClock } from '../../../src/time/clock.js';
import { memoryStateStore } from '../../helpers/memory-state-store.js';

const feedback = {
  merchantId: 'm1',
  paymentId: 'pay_1',
  gateway: 'stripe',
  status: 'CHARGED',
  enforceDynamicRoutingFailure: false,
  gatewayLatencyMs: 120,
  requestId: 'req-1',
  source: 'update_gateway_score',
} as const;

describe('receiveFeedback', () => {
  it('classifies the outcome and publishes a schema-valid feedback.received for a known merchant', async () => {
    const clock = createManualClock(1_700_000_000_000);
    const state = memoryStateStore(clock);
    await state.merchants.create({ merchantId: 'm1', merchantName: null, deciderInput: null, createdAt: 0 });
    const bus = createMemoryEventBus({ logger: silentLogger, validate: validateEvent });
    onTestFinished(() => bus.close());
    const published: EventEnvelope[] = [];
    const subscription = await bus.subscribe({
      group: 'unit',
      topics: [topicOf['feedback.received']],
      handler: async (batch) => void published.push(...batch),
    });

    expect(await receiveFeedback({ state, bus, clock }, feedback)).toEqual({ kind: 'published', gsm: undefined });
    expect(await receiveFeedback({ state, bus, clock }, { ...feedback, merchantId: 'nobody' })).toEqual({ kind: 'merchant_not_found' });
    await subscription.caughtUp();
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({ type: 'feedback.received', merchantId: 'm1', occurredAt: 1_700_000_000_000 });
    expect(published[0]!.payload).toEqual({
      paymentId: 'pay_1',
      gateway: 'stripe',
      status: 'CHARGED',
      outcome: 'success',
      enforceDynamicRoutingFailure: false,
      gatewayLatencyMs: 120,
      requestId: 'req-1',
      source: 'update_gateway_score',
    });
  });
});
