import { describe, expect, it, onTestFinished } from 'vitest';
import { createMemoryEventBus } from '../../../src/adapters/memory/memory-event-bus.js';
import { createSequenceRandom } from '../../../src/decision/random-source.js';
import { type EventEnvelope, topicOf } from '../../../src/events/event-envelope.js';
import { validateEvent } from '../../../src/events/validate-event.js';
import { silentLogger } from '../../../src/logging/logger.js';
import { activateRoutingAlgorithm, createRoutingAlgorithm } from '../../../src/routing-rules/manage-routing-algorithms.js';
import { runStaticEvaluation } from '../../../src/routing-rules/run-static-evaluation.js';
import { createManualClock } from '../../../src/time/clock.js';
import { memoryStateStore } from '../../helpers/memory-state-store.js';

const stripe = { gateway_name: 'stripe', gateway_id: null };

async function setup() {
  const clock = createManualClock(1_700_000_000_000);
  const bus = createMemoryEventBus({ logger: silentLogger, validate: validateEvent });
  onTestFinished(() => bus.close());
  const published: EventEnvelope[] = [];
  const subscription = await bus.subscribe({ group: 'unit', topics: [topicOf['rule.evaluated']], handler: async (batch) => void published.push(...batch) });
  const deps = { state: memoryStateStore(clock), bus, clock, random: createSequenceRandom([0.5]) };
  await createRoutingAlgorithm(deps, { rule_id: 'r1', name: 'one', created_by: 'm1', algorithm: { type: 'single', data: stripe } });
  return { deps, published, caughtUp: () => subscription.caughtUp() };
}

describe('runStaticEvaluation', () => {
  it('evaluates the active algorithm and publishes a schema-valid rule.evaluated carrying the call', async () => {
    const { deps, published, caughtUp } = await setup();
    await activateRoutingAlgorithm(deps, 'm1', 'r1');
    const result = await runStaticEvaluation(deps, { created_by: 'm1', payment_id: 'pay_1', parameters: {} }, { source: 'evaluate', requestId: 'req-1' });
    expect(result).toMatchObject({ ok: true, evaluation: { status: 'success', evaluatedOutput: [stripe] }, record: { id: 'r1' } });
    await caughtUp();
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({ type: 'rule.evaluated', merchantId: 'm1', occurredAt: 1_700_000_000_000 });
    expect(published[0]!.payload).toMatchObject({
      source: 'evaluate',
      paymentId: 'pay_1',
      requestId: 'req-1',
      algorithmId: 'r1',
      status: 'success',
      evaluatedOutput: ['stripe'],
      errorMessage: null,
    });
  });

  it('previews an inactive algorithm by id, but not another merchant’s', async () => {
    const { deps } = await setup();
    const preview = await runStaticEvaluation(
      deps,
      { created_by: 'm1', parameters: {}, routing_algorithm_id: 'r1' },
      { source: 'evaluate', requestId: 'req-2' },
    );
    expect(preview.ok).toBe(true);
    const theirs = await runStaticEvaluation(
      deps,
      { created_by: 'm2', parameters: {}, routing_algorithm_id: 'r1' },
      { source: 'evaluate', requestId: 'req-3' },
    );
    expect(theirs).toMatchObject({ ok: false, error: { code: 'SY_ROUTING_RULE_REJECTED', message: 'Routing algorithm not found for the provided id : r1' } });
  });

  it('returns the refusal (never throws) when no algorithm is active, publishing nothing', async () => {
    const { deps, published, caughtUp } = await setup();
    const result = await runStaticEvaluation(deps, { created_by: 'm1', parameters: {} }, { source: 'hybrid', requestId: 'req-4' });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'SY_ROUTING_RULE_REJECTED', message: 'No active routing algorithm found for the created_by entity : m1' },
    });
    await caughtUp();
    expect(published).toEqual([]);
  });

  it('answers the fallback_output as no_active_algorithm when no algorithm is active and one is sent, publishing nothing', async () => {
    const { deps, published, caughtUp } = await setup();
    const fallback = [{ gateway_name: 'adyen', gateway_id: null }];
    const result = await runStaticEvaluation(deps, { created_by: 'm1', parameters: {}, fallback_output: fallback }, { source: 'evaluate', requestId: 'req-5' });
    expect(result).toEqual({
      ok: true,
      evaluation: { status: 'no_active_algorithm', output: { type: 'priority', connectors: fallback }, evaluatedOutput: fallback, ruleName: null },
    });
    await caughtUp();
    expect(published).toEqual([]);
  });
});
