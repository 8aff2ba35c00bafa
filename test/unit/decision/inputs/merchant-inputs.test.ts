import { describe, expect, it } from 'vitest';
import {
  gatewayCapabilitiesOf,
  maxGatewaysPerMerchant,
  removeGatewayCapability,
  upsertGatewayCapability,
} from '../../../../src/decision/inputs/gateway-capabilities.js';
import { readDebitRouting, readDeciderInput, writeDebitRouting } from '../../../../src/decision/inputs/merchant-settings.js';
import { writeSrDimension } from '../../../../src/decision/inputs/sr-dimension.js';
import { deleteRuleConfig, readRuleConfig, writeRuleConfig } from '../../../../src/decision/inputs/rule-configuration.js';
import type { GatewayCapability } from '../../../../src/generated/schema-types.js';
import { createManualClock } from '../../../../src/time/clock.js';
import { memoryStateStore } from '../../../helpers/memory-state-store.js';

async function merchantState() {
  const state = memoryStateStore(createManualClock());
  await state.merchants.create({ merchantId: 'm1', merchantName: null, deciderInput: 'raw input', createdAt: 0 });
  return state;
}

const capability = (gateway: string): GatewayCapability => ({ gateway }) as GatewayCapability;

describe('merchant settings', () => {
  it('echoes the raw decider input until an elimination config derives it', async () => {
    const state = await merchantState();
    expect(await readDeciderInput(state, 'm1')).toBe('raw input');
    await writeRuleConfig(state, 'm1', { type: 'elimination', data: { threshold: 0.35 } }, 'create');
    expect(JSON.parse(await readDeciderInput(state, 'm1'))).toMatchObject({ defaultEliminationThreshold: 0.35 });
    await expect(readDeciderInput(state, 'nobody')).rejects.toMatchObject({ code: 'SY_MERCHANT_NOT_FOUND' });
  });

  it('switches debit routing for an existing merchant only', async () => {
    const state = await merchantState();
    expect(await readDebitRouting(state, 'm1')).toBe(false);
    await writeDebitRouting(state, 'm1', true);
    expect(await readDebitRouting(state, 'm1')).toBe(true);
    await expect(writeDebitRouting(state, 'nobody', true)).rejects.toMatchObject({ code: 'SY_MERCHANT_NOT_FOUND' });
  });
});

describe('rule configuration', () => {
  it('creates once, updates an existing one, reads and deletes it', async () => {
    const state = await merchantState();
    const sr = { type: 'successRate', data: { defaultBucketSize: 10 } } as const;
    await expect(writeRuleConfig(state, 'm1', sr, 'update')).rejects.toMatchObject({ code: 'SY_RULE_CONFIG_NOT_FOUND' });
    await writeRuleConfig(state, 'm1', sr, 'create');
    await expect(writeRuleConfig(state, 'm1', sr, 'create')).rejects.toMatchObject({ code: 'SY_RULE_CONFIG_EXISTS' });
    await writeRuleConfig(state, 'm1', { type: 'successRate', data: { defaultBucketSize: 20 } }, 'update');
    expect(await readRuleConfig(state, 'm1', 'successRate')).toEqual({ type: 'successRate', data: { defaultBucketSize: 20 } });
    await deleteRuleConfig(state, 'm1', 'successRate');
    await expect(readRuleConfig(state, 'm1', 'successRate')).rejects.toMatchObject({ code: 'SY_RULE_CONFIG_NOT_FOUND' });
    await expect(deleteRuleConfig(state, 'm1', 'successRate')).rejects.toMatchObject({ code: 'SY_RULE_CONFIG_NOT_FOUND' });
  });

  it('lets elimination overwrite on create and on update (1.4.x), and requires the merchant', async () => {
    const state = await merchantState();
    await writeRuleConfig(state, 'm1', { type: 'elimination', data: { threshold: 0.1 } }, 'update');
    await writeRuleConfig(state, 'm1', { type: 'elimination', data: { threshold: 0.2 } }, 'create');
    expect(await readRuleConfig(state, 'm1', 'elimination')).toEqual({ type: 'elimination', data: { threshold: 0.2 } });
    await expect(writeRuleConfig(state, 'nobody', { type: 'elimination', data: { threshold: 0.2 } }, 'create')).rejects.toMatchObject({
      code: 'SY_MERCHANT_NOT_FOUND',
    });
  });
});

describe('gateway capabilities', () => {
  it('adds, replaces and removes gateways, dropping the document with the last one', async () => {
    const state = await merchantState();
    expect(await gatewayCapabilitiesOf(state, 'm1')).toEqual([]);
    expect(await upsertGatewayCapability(state, 'm1', capability('stripe'))).toEqual({ gateways: [capability('stripe')], replaced: false });
    expect((await upsertGatewayCapability(state, 'm1', capability('adyen'))).replaced).toBe(false);
    expect(await upsertGatewayCapability(state, 'm1', capability('stripe'))).toEqual({ gateways: [capability('stripe'), capability('adyen')], replaced: true });
    expect(await removeGatewayCapability(state, 'm1', 'paypal')).toBe('missing');
    expect(await removeGatewayCapability(state, 'm1', 'stripe')).toBe('removed');
    expect(await removeGatewayCapability(state, 'm1', 'adyen')).toBe('removed');
    expect(await state.configs.get('m1', 'gatewayCapabilities')).toBeUndefined();
    await expect(gatewayCapabilitiesOf(state, 'nobody')).rejects.toMatchObject({ code: 'SY_MERCHANT_NOT_FOUND' });
  });

  it(`refuses a new gateway past ${maxGatewaysPerMerchant}, but still replaces an existing one`, async () => {
    const state = await merchantState();
    const full = Array.from({ length: maxGatewaysPerMerchant }, (_, at) => capability(`gw${at}`));
    await state.configs.put('m1', 'gatewayCapabilities', full, 'upsert');
    await expect(upsertGatewayCapability(state, 'm1', capability('one-more'))).rejects.toMatchObject({ code: 'SY_REQUEST_INVALID' });
    expect((await upsertGatewayCapability(state, 'm1', capability('gw0'))).replaced).toBe(true);
  });
});

describe('success-rate dimensions', () => {
  it('stores the fields that are dimensions, even before the merchant exists, and names the ones that are not', async () => {
    const state = memoryStateStore(createManualClock());
    await writeSrDimension(state, 'later', { fields: ['currency', 'card_network'], udfs: [] });
    expect(await state.configs.get('later', 'srDimension')).toEqual({ fields: ['currency', 'card_network'], udfs: [] });
    await expect(writeSrDimension(state, 'later', { fields: ['currency', 'shoe_size'], udfs: [] })).rejects.toMatchObject({
      code: 'SY_SR_DIMENSION_INVALID',
      message: 'Invalid dimensions: ["shoe_size"]. Valid dimensions are: currency, country, auth_type, card_is_in, card_network',
    });
  });
});
