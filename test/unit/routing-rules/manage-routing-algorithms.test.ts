import { describe, expect, it } from 'vitest';
import {
  activateRoutingAlgorithm,
  createRoutingAlgorithm,
  deactivateRoutingAlgorithm,
  deleteRoutingAlgorithm,
  updateRoutingAlgorithm,
} from '../../../src/routing-rules/manage-routing-algorithms.js';
import { createManualClock } from '../../../src/time/clock.js';
import { memoryStateStore } from '../../helpers/memory-state-store.js';

const stripe = { gateway_name: 'stripe', gateway_id: null };
const adyen = { gateway_name: 'adyen', gateway_id: null };

function setup() {
  const clock = createManualClock(1_700_000_000_000);
  return { deps: { state: memoryStateStore(clock), clock }, clock };
}

describe('routing algorithm use cases', () => {
  it('creates an inactive payment algorithm with defaults, and refuses a taken id', async () => {
    const { deps } = setup();
    const record = await createRoutingAlgorithm(deps, { rule_id: 'r1', name: 'one', created_by: 'm1', algorithm: { type: 'single', data: stripe } });
    expect(record).toMatchObject({
      id: 'r1',
      createdBy: 'm1',
      name: 'one',
      description: '',
      algorithmFor: 'payment',
      metadata: null,
      createdAt: 1_700_000_000_000,
      modifiedAt: 1_700_000_000_000,
    });
    expect(await deps.state.routingRules.get('r1')).toEqual(record);
    expect(await deps.state.routingRules.loadActive('m1')).toEqual([]);
    await expect(
      createRoutingAlgorithm(deps, { rule_id: 'r1', name: 'again', created_by: 'm1', algorithm: { type: 'single', data: stripe } }),
    ).rejects.toMatchObject({
      code: 'SY_ROUTING_RULE_REJECTED',
      message: 'Routing algorithm already exists for the provided id : r1',
    });
  });

  it('names every problem of a body that is not a rule', async () => {
    const { deps } = setup();
    await expect(
      createRoutingAlgorithm(deps, { created_by: 'm1', name: 7, description: 3, algorithm: { type: 'single', data: stripe } }),
    ).rejects.toMatchObject({
      code: 'SY_ROUTING_RULE_REJECTED',
      message:
        'Invalid routing rule configuration: name: invalid_shape: expected a string, got a number; description: invalid_shape: expected a string or null, got a number',
    });
    await expect(
      createRoutingAlgorithm(deps, { created_by: 'm1', name: 'n', algorithm_for: 'refunds', algorithm: { type: 'single', data: stripe } }),
    ).rejects.toMatchObject({
      message: expect.stringMatching(
        /^Invalid routing rule configuration: algorithm_for: invalid_shape: expected one of payment, payout, three_ds_authentication/,
      ),
    });
    await expect(createRoutingAlgorithm(deps, { created_by: 'm1', name: 'n', algorithm: { type: 'single' } })).rejects.toMatchObject({
      message: 'Invalid routing rule configuration: data: invalid_shape: expected an object, got nothing (missing field)',
    });
  });

  it('updates the given fields of an inactive algorithm, and refuses an active one or another merchant’s', async () => {
    const { deps, clock } = setup();
    await createRoutingAlgorithm(deps, { rule_id: 'r1', name: 'one', description: 'first', created_by: 'm1', algorithm: { type: 'single', data: stripe } });
    clock.advance(5_000);
    const updated = await updateRoutingAlgorithm(deps, {
      created_by: 'm1',
      routing_algorithm_id: 'r1',
      description: null,
      algorithm: { type: 'single', data: adyen },
    });
    expect(updated).toMatchObject({
      name: 'one',
      description: '',
      algorithm: { type: 'single', data: adyen },
      modifiedAt: 1_700_000_005_000,
      createdAt: 1_700_000_000_000,
    });
    await expect(updateRoutingAlgorithm(deps, { created_by: 'm2', routing_algorithm_id: 'r1', name: 'theirs' })).rejects.toMatchObject({
      message: 'Routing algorithm not found for the provided id : r1',
    });
    await activateRoutingAlgorithm(deps, 'm1', 'r1');
    await expect(updateRoutingAlgorithm(deps, { created_by: 'm1', routing_algorithm_id: 'r1', name: 'two' })).rejects.toMatchObject({
      message: 'This experiment is active. Stop it before editing or deleting.',
    });
  });

  it('activates, deactivates (idempotently) and deletes only when inactive', async () => {
    const { deps } = setup();
    await createRoutingAlgorithm(deps, { rule_id: 'r1', name: 'one', created_by: 'm1', algorithm: { type: 'single', data: stripe } });
    await expect(activateRoutingAlgorithm(deps, 'm2', 'r1')).rejects.toMatchObject({ message: 'Routing algorithm not found for the provided id : r1' });
    await activateRoutingAlgorithm(deps, 'm1', 'r1');
    expect((await deps.state.routingRules.loadActive('m1')).map((record) => record.id)).toEqual(['r1']);
    await expect(deleteRoutingAlgorithm(deps, 'm1', 'r1')).rejects.toMatchObject({ message: 'This experiment is active. Stop it before editing or deleting.' });
    await deactivateRoutingAlgorithm(deps, 'm1', 'r1');
    await deactivateRoutingAlgorithm(deps, 'm1', 'r1');
    expect(await deps.state.routingRules.loadActive('m1')).toEqual([]);
    await deleteRoutingAlgorithm(deps, 'm1', 'r1');
    await expect(deleteRoutingAlgorithm(deps, 'm1', 'r1')).rejects.toMatchObject({ message: 'Routing algorithm not found for the provided id : r1' });
  });
});
