import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  applyFallbackOutput,
  compileRoutingAlgorithm,
  parseRoutingAlgorithm,
  routingKeysView,
  validateEvaluationParameters,
} from '../../src/routing-rules/index.js';
import { createMerchant, createTestApp, decideBody, neverHedge, withKey, type TestApp } from '../helpers/test-app.js';
import { evaluationParametersArbitrary, routingAlgorithmArbitrary } from '../unit/routing-rules/rule-arbitraries.js';

const merchant = 'rules-m1';
const stripe = { gateway_name: 'stripe', gateway_id: null };
const adyen = { gateway_name: 'adyen', gateway_id: 'mca_adyen' };
const checkout = { gateway_name: 'checkout', gateway_id: null };

/** An advanced rule: cards above 100 go to checkout first; everything else to the default (stripe). */
const advanced = {
  type: 'advanced',
  data: {
    globals: {},
    default_selection: { priority: [stripe] },
    rules: [
      {
        name: 'Card Rule',
        routing_type: 'priority',
        output: { priority: [checkout, adyen] },
        statements: [
          {
            condition: [
              { lhs: 'payment_method', comparison: 'equal', value: { type: 'enum_variant', value: 'card' }, metadata: {} },
              { lhs: 'amount', comparison: 'greater_than', value: { type: 'number', value: 100 }, metadata: {} },
            ],
          },
        ],
      },
    ],
    metadata: null,
  },
};

const timestamp = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/;

describe('routing rules (euclid)', () => {
  let t: TestApp;
  let key: string;

  beforeEach(async () => {
    t = await createTestApp();
    key = (await createMerchant(t.app, merchant)).apiKey;
  });
  afterEach(async () => t.close());

  const post = (url: string, payload?: unknown) =>
    t.app.inject({ method: 'POST', url, headers: withKey(key), ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  const create = async (algorithm: unknown, extra: Record<string, unknown> = {}) => {
    const response = await post('/routing/create', { name: 'rule', created_by: merchant, algorithm, ...extra });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { rule_id: string }).rule_id;
  };
  const activate = async (id: string) => expect((await post('/routing/activate', { created_by: merchant, routing_algorithm_id: id })).statusCode).toBe(200);
  const evaluate = (parameters: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    post('/routing/evaluate', { created_by: merchant, payment_id: 'pay_1', parameters, ...extra });
  const teError = (message: string) => ({ code: 'TE_04', message, data: null });

  describe('POST /routing/create', () => {
    it('answers a RoutingDictionaryRecord with a routing_<uuid> id and DB timestamps', async () => {
      const response = await post('/routing/create', { name: 'my rule', description: 'd', created_by: merchant, algorithm: advanced, metadata: { a: 1 } });
      expect(response.statusCode).toBe(200);
      const body = response.json() as Record<string, string>;
      expect(Object.keys(body).sort()).toEqual(['algorithm_for', 'created_at', 'modified_at', 'name', 'rule_id']);
      expect(body['rule_id']).toMatch(/^routing_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(body).toMatchObject({ name: 'my rule', algorithm_for: 'payment' });
      expect(body['created_at']).toMatch(timestamp);
      expect(body['modified_at']).toBe(body['created_at']);
    });

    it('keeps a client-supplied rule_id and algorithm_for', async () => {
      const response = await post('/routing/create', {
        rule_id: 'routing_mine',
        name: 'r',
        created_by: merchant,
        algorithm_for: 'payout',
        algorithm: { type: 'single', data: stripe },
      });
      expect(response.json()).toMatchObject({ rule_id: 'routing_mine', algorithm_for: 'payout' });
    });

    it('answers 400 Invalid routing rule configuration, naming the problem, for a body that is not a rule', async () => {
      const amountIs = (value: unknown) => ({
        type: 'advanced',
        data: {
          ...advanced.data,
          rules: [{ ...advanced.data.rules[0]!, statements: [{ condition: [{ lhs: 'amount', comparison: 'equal', value: { type: 'number', value } }] }] }],
        },
      });
      const cases: [Record<string, unknown>, string][] = [
        [{ name: 'r', created_by: merchant, algorithm: { type: 'single' } }, 'data: invalid_shape: expected an object, got nothing (missing field)'],
        [
          { name: 'r', created_by: merchant, algorithm: { type: 'nonsense', data: [] } },
          "type: invalid_shape: expected one of single, priority, volume_split, advanced, ab_test, volume_contract, got 'nonsense'",
        ],
        [
          { name: 'r', created_by: merchant, algorithm: amountIs('abc') },
          "data.rules[0].statements[0].condition[0].value.value: invalid_shape: expected a whole number of 0 or more, got 'abc'",
        ],
        [{ created_by: merchant, algorithm: { type: 'single', data: stripe } }, 'name: invalid_shape: expected a string, got nothing (missing field)'],
        [
          { name: 'r', created_by: merchant, algorithm_for: 'refunds', algorithm: { type: 'single', data: stripe } },
          "algorithm_for: invalid_shape: expected one of payment, payout, three_ds_authentication, volume_commitment, got 'refunds'",
        ],
      ];
      for (const [payload, problem] of cases) {
        const response = await post('/routing/create', payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(response.json()).toEqual(teError(`Invalid routing rule configuration: ${problem}`));
      }
    });

    it('answers 400 Field validation failed naming empty outputs, split sums and wrong value types', async () => {
      const cases: [unknown, string][] = [
        [{ type: 'priority', data: [] }, 'data: empty_output: priority list is empty'],
        [{ type: 'single', data: { gateway_name: '' } }, 'data.gateway_name: empty_output: gateway_name is empty'],
        [
          {
            type: 'volume_split',
            data: [
              { split: 70, output: stripe },
              { split: 20, output: adyen },
            ],
          },
          'data: split_sum_not_100: volume split percentages add up to 90, expected 100',
        ],
        [
          {
            type: 'advanced',
            data: {
              ...advanced.data,
              rules: [
                {
                  ...advanced.data.rules[0]!,
                  statements: [{ condition: [{ lhs: 'amount', comparison: 'equal', value: { type: 'enum_variant', value: 'card' } }] }],
                },
              ],
            },
          },
          "data.rules[0].statements[0].condition[0].value: type_mismatch: key 'amount' is integer and expects number, number_array or number_comparison_array, got enum_variant",
        ],
      ];
      for (const [algorithm, problem] of cases) {
        const response = await post('/routing/create', { name: 'r', created_by: merchant, algorithm });
        expect(response.statusCode, JSON.stringify(algorithm)).toBe(400);
        expect(response.json()).toEqual(teError(`Field validation failed: ${problem}`));
      }
    });

    it('answers 400 Field validation failed with every problem for an invalid advanced rule', async () => {
      const bad = structuredClone(advanced) as typeof advanced;
      (bad.data.rules[0]!.statements[0]!.condition[0] as { lhs: string }).lhs = 'no_such_key';
      const response = await post('/routing/create', { name: 'r', created_by: merchant, algorithm: bad });
      expect(response.statusCode).toBe(400);
      const expected = parseRoutingAlgorithm(bad);
      expect(expected.ok).toBe(false);
      const message = (response.json() as { message: string }).message;
      expect(message).toBe(`Field validation failed: ${(expected.ok ? [] : expected.errors).join('; ')}`);
      expect(message).toContain('no_such_key');
    });

    it('answers 422 when created_by is missing', async () => {
      const response = await post('/routing/create', { name: 'r', algorithm: { type: 'single', data: stripe } });
      expect(response.statusCode).toBe(422);
    });
  });

  describe('activation, listing and evaluation', () => {
    it('lists every algorithm as JsonifiedRoutingAlgorithm and the active ones as an array', async () => {
      const a = await create(advanced);
      const b = await create({ type: 'priority', data: [adyen, stripe] });
      const list = await t.app.inject({ method: 'POST', url: `/routing/list/${merchant}`, headers: { ...withKey(key), 'content-type': 'application/json' } });
      expect(list.statusCode, list.body).toBe(200);
      const items = list.json() as Record<string, unknown>[];
      expect(items.map((item) => item['id'])).toEqual([a, b]);
      expect(Object.keys(items[1]!).sort()).toEqual([
        'algorithm_data',
        'algorithm_for',
        'created_at',
        'created_by',
        'description',
        'id',
        'modified_at',
        'name',
      ]);
      expect(items[1]).toMatchObject({
        created_by: merchant,
        description: '',
        algorithm_for: 'payment',
        algorithm_data: { type: 'priority', data: [adyen, stripe] },
      });

      expect((await post(`/routing/list/active/${merchant}`)).json()).toEqual([]);
      await activate(a);
      await activate(b); // replaces a
      const active = (await post(`/routing/list/active/${merchant}`)).json() as { id: string }[];
      expect(active.map((item) => item.id)).toEqual([b]);
    });

    it('answers 200 with an empty body to activate and deactivate; deactivate is idempotent', async () => {
      const id = await create({ type: 'single', data: stripe });
      const activated = await post('/routing/activate', { created_by: merchant, routing_algorithm_id: id });
      expect(activated.statusCode).toBe(200);
      expect(activated.body).toBe('');
      for (let i = 0; i < 2; i += 1) {
        const response = await post('/routing/deactivate', { created_by: merchant, routing_algorithm_id: id });
        expect(response.statusCode).toBe(200);
        expect(response.body).toBe('');
      }
      expect((await post(`/routing/list/active/${merchant}`)).json()).toEqual([]);
    });

    it("answers 400 for an unknown (or another merchant's) algorithm id", async () => {
      const otherKey = (await createMerchant(t.app, 'rules-m2')).apiKey;
      const foreign = (
        await t.app.inject({
          method: 'POST',
          url: '/routing/create',
          headers: withKey(otherKey),
          payload: { name: 'x', created_by: 'rules-m2', algorithm: { type: 'single', data: stripe } },
        })
      ).json() as { rule_id: string };
      for (const url of ['/routing/activate', '/routing/deactivate', '/routing/delete']) {
        for (const id of ['routing_missing', foreign.rule_id]) {
          const response = await post(url, { created_by: merchant, routing_algorithm_id: id });
          expect(response.statusCode, url).toBe(400);
          expect(response.json()).toEqual(teError(`Routing algorithm not found for the provided id : ${id}`));
        }
      }
      const update = await post('/routing/update', { created_by: merchant, routing_algorithm_id: 'routing_missing', name: 'x' });
      expect(update.statusCode).toBe(400);
      expect(update.json()).toEqual(teError('Routing algorithm not found for the provided id : routing_missing'));
    });

    it('answers 400 to a list call with invalid JSON', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: `/routing/list/${merchant}`,
        headers: { ...withKey(key), 'content-type': 'application/json' },
        payload: '{nope',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'TE_03', message: expect.stringMatching(/^Failed to parse the request body as JSON: /), data: null });
    });

    it('answers 422 for an activate body without routing_algorithm_id', async () => {
      expect((await post('/routing/activate', { created_by: merchant })).statusCode).toBe(422);
    });

    it('evaluates the active advanced rule: a matching rule, then the default selection and fallback_output', async () => {
      await activate(await create(advanced));
      const hit = await evaluate({ payment_method: { type: 'enum_variant', value: 'card' }, amount: { type: 'number', value: 150 } });
      expect(hit.statusCode, hit.body).toBe(200);
      expect(hit.json()).toEqual({
        payment_id: 'pay_1',
        status: 'success',
        output: { type: 'priority', connectors: [checkout, adyen] },
        evaluated_output: [checkout, adyen],
        eligible_connectors: [checkout, adyen],
      });
      const miss = await evaluate({ payment_method: { type: 'enum_variant', value: 'card' }, amount: { type: 'number', value: 50 }, card_network: null });
      expect(miss.json()).toMatchObject({ status: 'default_selection', output: { type: 'priority', connectors: [stripe] }, evaluated_output: [stripe] });
      const fallback = await evaluate({ amount: { type: 'number', value: 50 } }, { fallback_output: [adyen] });
      expect(fallback.json()).toMatchObject({ status: 'default_selection', output: { type: 'priority', connectors: [adyen] }, evaluated_output: [adyen] });
    });

    it('evaluates single, priority and volume_split algorithms in their output formats', async () => {
      await activate(await create({ type: 'single', data: stripe }));
      expect((await evaluate({})).json()).toMatchObject({
        status: 'success',
        output: { type: 'straight_through', connector: stripe },
        evaluated_output: [stripe],
      });
      await activate(await create({ type: 'priority', data: [adyen, stripe] }));
      expect((await evaluate({})).json()).toMatchObject({ output: { type: 'priority', connectors: [adyen, stripe] }, evaluated_output: [adyen, stripe] });
      // The test app's random source draws 0.99: the last split wins and goes first.
      await activate(
        await create({
          type: 'volume_split',
          data: [
            { split: 70, output: stripe },
            { split: 30, output: adyen },
          ],
        }),
      );
      expect((await evaluate({})).json()).toMatchObject({
        output: {
          type: 'volume_split',
          splits: [
            { connector: stripe, split: 70 },
            { connector: adyen, split: 30 },
          ],
        },
        evaluated_output: [adyen, stripe],
      });
    });

    it('answers 200 no_active_algorithm with the fallback_output when no algorithm is active (decision-engine #379), 400 without one', async () => {
      const withFallback = await evaluate({}, { fallback_output: [adyen] });
      expect(withFallback.statusCode, withFallback.body).toBe(200);
      expect(withFallback.json()).toEqual({
        payment_id: 'pay_1',
        status: 'no_active_algorithm',
        output: { type: 'priority', connectors: [adyen] },
        evaluated_output: [adyen],
        eligible_connectors: [adyen],
      });
      expect((await evaluate({}, { fallback_output: [] })).statusCode).toBe(400);
      // Deactivated: the rule the merchant switched off is gone from the answer.
      const id = await create({ type: 'single', data: stripe });
      await activate(id);
      expect((await evaluate({}, { fallback_output: [adyen] })).json()).toMatchObject({ status: 'success', evaluated_output: [stripe] });
      expect((await post('/routing/deactivate', { created_by: merchant, routing_algorithm_id: id })).statusCode).toBe(200);
      const afterDeactivation = await evaluate({}, { fallback_output: [adyen] });
      expect(afterDeactivation.json()).toMatchObject({ status: 'no_active_algorithm', evaluated_output: [adyen] });
      expect(afterDeactivation.body).not.toContain('stripe');
      const withoutFallback = await evaluate({});
      expect(withoutFallback.statusCode).toBe(400);
      expect(withoutFallback.json()).toEqual(teError(`No active routing algorithm found for the created_by entity : ${merchant}`));
    });

    it('answers 400 with the reference messages for bad parameters and no active algorithm', async () => {
      const none = await evaluate({});
      expect(none.statusCode).toBe(400);
      expect(none.json()).toEqual(teError(`No active routing algorithm found for the created_by entity : ${merchant}`));
      await activate(await create(advanced));
      const cases: [Record<string, unknown>, string][] = [
        [{ no_such_key: { type: 'number', value: 1 } }, 'Invalid parameter: no_such_key'],
        [{ payment_method: { type: 'number', value: 1 } }, "Invalid request received : Expected enum value for key 'payment_method'"],
        [{ payment_method: { type: 'enum_variant', value: 'teleport' } }, "Invalid request received : Invalid enum value 'teleport' for key 'payment_method'"],
      ];
      for (const [parameters, message] of cases) {
        const checked = validateEvaluationParameters(parameters);
        expect(checked.ok ? '' : checked.wireMessage).toBe(message);
        const response = await evaluate(parameters);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual(teError(message));
      }
    });

    it('answers 400 InvalidComparison when a parameter cannot be compared with the rule', async () => {
      await activate(await create(advanced));
      const response = await evaluate({ payment_method: { type: 'enum_variant', value: 'card' }, amount: { type: 'str_value', value: 'lots' } });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(teError('Invalid request received : Interpreter error: InvalidComparison'));
    });

    describe('POST /routing/evaluate/batch (decision-engine #378, #398)', () => {
      const card = (amount: number) => ({ payment_method: { type: 'enum_variant', value: 'card' }, amount: { type: 'number', value: amount } });
      const batch = (requests: unknown[], extra: Record<string, unknown> = {}) => post('/routing/evaluate/batch', { created_by: merchant, requests, ...extra });

      it('evaluates the active rule for each parameter set, results in request order, each as /routing/evaluate answers it', async () => {
        await activate(await create(advanced));
        const requests = [
          { payment_id: 'p_big', parameters: card(500) },
          { payment_id: 'p_small', parameters: card(5) },
          { parameters: { payment_method: { type: 'enum_variant', value: 'card' }, amount: { type: 'str_value', value: 'lots' } } },
          { payment_id: 'p_big2', parameters: card(101) },
        ];
        const response = await batch(requests, { algorithm_for: 'payment', fallback_output: [adyen] });
        expect(response.statusCode, response.body).toBe(200);
        const { results } = response.json() as { results: Record<string, unknown>[] };
        expect(results).toHaveLength(4);
        const single = (await evaluate(card(500))).json() as Record<string, unknown>;
        expect(results[0]).toEqual({ ...single, payment_id: 'p_big' });
        expect(results[0]).toMatchObject({ status: 'success', evaluated_output: [checkout, adyen] });
        // No rule matched: the default selection gives way to the batch's fallback_output.
        expect(results[1]).toMatchObject({ payment_id: 'p_small', status: 'default_selection', evaluated_output: [adyen] });
        // One entry the interpreter refuses answers an error at its place; the others stand.
        expect(results[2]).toEqual({
          payment_id: null,
          status: 'error',
          output: null,
          evaluated_output: [],
          eligible_connectors: [],
          error_message: 'Invalid request received : Interpreter error: InvalidComparison',
        });
        expect(results[3]).toMatchObject({ payment_id: 'p_big2', status: 'success', evaluated_output: [checkout, adyen] });
      });

      it('resolves the active algorithm once per batch', async () => {
        await activate(await create(advanced));
        const loadActive = vi.spyOn(t.state.routingRules, 'loadActive');
        const response = await batch(Array.from({ length: 50 }, (_, index) => ({ payment_id: `p${index}`, parameters: card(index * 10) })));
        expect(response.statusCode, response.body).toBe(200);
        expect((response.json() as { results: { payment_id: string }[] }).results.map((entry) => entry.payment_id)).toEqual(
          Array.from({ length: 50 }, (_, index) => `p${index}`),
        );
        expect(loadActive).toHaveBeenCalledTimes(1);
      });

      it('answers an empty batch with 200 {"results": []}, even with no active algorithm', async () => {
        const response = await batch([]);
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({ results: [] });
      });

      it('refuses more than 50 entries, a bad parameter in any entry and no active algorithm without fallback, in the envelope', async () => {
        await activate(await create(advanced));
        const tooMany = await batch(Array.from({ length: 51 }, () => ({ parameters: card(1) })));
        expect(tooMany.statusCode).toBe(400);
        expect(tooMany.json()).toEqual(teError('Batch size 51 exceeds the maximum of 50 evaluations'));
        const badParameter = await batch([{ parameters: card(1) }, { parameters: { no_such_key: { type: 'number', value: 1 } } }]);
        expect(badParameter.statusCode).toBe(400);
        expect(badParameter.json()).toEqual(teError('requests[1]: Invalid parameter: no_such_key'));
      });

      it('answers every entry no_active_algorithm with the fallback when no algorithm is active, 400 without one', async () => {
        const none = await batch([{ parameters: card(1) }]);
        expect(none.statusCode).toBe(400);
        expect(none.json()).toEqual(teError(`No active routing algorithm found for the created_by entity : ${merchant}`));
        const withFallback = await batch(
          [
            { payment_id: 'a', parameters: card(1) },
            { payment_id: 'b', parameters: card(500) },
          ],
          { fallback_output: [stripe] },
        );
        expect(withFallback.statusCode).toBe(200);
        expect((withFallback.json() as { results: unknown[] }).results).toEqual(
          ['a', 'b'].map((id) => ({
            payment_id: id,
            status: 'no_active_algorithm',
            output: { type: 'priority', connectors: [stripe] },
            evaluated_output: [stripe],
            eligible_connectors: [stripe],
          })),
        );
      });

      it("refuses another merchant's created_by (403)", async () => {
        const response = await post('/routing/evaluate/batch', { created_by: 'someone-else', requests: [] });
        expect(response.statusCode).toBe(403);
      });
    });

    it('emits a rule.evaluated event per evaluation, keyed by merchant, with rule, output, status and latency', async () => {
      const id = await create(advanced);
      await activate(id);
      await evaluate({ payment_method: { type: 'enum_variant', value: 'card' }, amount: { type: 'number', value: 150 } });
      await t.worker.caughtUp();
      const events = t.events.filter((event) => event.type === 'rule.evaluated');
      expect(events).toHaveLength(1);
      const event = events[0]!;
      expect(event.merchantId).toBe(merchant);
      expect(event.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
      expect(event.payload).toMatchObject({
        source: 'evaluate',
        paymentId: 'pay_1',
        algorithmId: id,
        algorithmType: 'advanced',
        ruleName: 'Card Rule',
        status: 'success',
        evaluatedOutput: ['checkout', 'adyen'],
        errorMessage: null,
      });
      expect((event.payload as { latencyMs: number }).latencyMs).toBeGreaterThanOrEqual(0);
    });

    it('previews an inactive algorithm named by routing_algorithm_id, leaving the active one in charge', async () => {
      const active = await create({ type: 'single', data: stripe });
      await activate(active);
      const draft = await create(advanced);
      const card = { payment_method: { type: 'enum_variant', value: 'card' }, amount: { type: 'number', value: 500 } };
      const preview = await evaluate(card, { routing_algorithm_id: draft });
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.json()).toMatchObject({ status: 'success', evaluated_output: [checkout, adyen] });
      expect((await evaluate(card)).json()).toMatchObject({ evaluated_output: [stripe] });
      const listed = (await post(`/routing/list/active/${merchant}`)).json() as { id: string }[];
      expect(listed.map((record) => record.id)).toEqual([active]);
    });

    it('answers 400 not found when routing_algorithm_id names no algorithm of the merchant', async () => {
      const response = await evaluate({ amount: { type: 'number', value: 1 } }, { routing_algorithm_id: 'routing_missing' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(teError('Routing algorithm not found for the provided id : routing_missing'));
    });
  });

  describe('update and delete', () => {
    it('updates an inactive algorithm and refuses an active one', async () => {
      const id = await create({ type: 'single', data: stripe });
      t.clock.advance(1500);
      const updated = await post('/routing/update', {
        created_by: merchant,
        routing_algorithm_id: id,
        name: 'renamed',
        description: 'new',
        algorithm: { type: 'priority', data: [adyen] },
      });
      expect(updated.statusCode, updated.body).toBe(200);
      const record = updated.json() as Record<string, string>;
      expect(record).toMatchObject({ rule_id: id, name: 'renamed', algorithm_for: 'payment' });
      expect(record['modified_at']! > record['created_at']!).toBe(true);
      const listed = (await post(`/routing/list/${merchant}`)).json() as Record<string, unknown>[];
      expect(listed[0]).toMatchObject({ name: 'renamed', description: 'new', algorithm_data: { type: 'priority', data: [adyen] } });

      await activate(id);
      for (const [url, payload] of [
        ['/routing/update', { created_by: merchant, routing_algorithm_id: id, name: 'again' }],
        ['/routing/delete', { created_by: merchant, routing_algorithm_id: id }],
      ] as const) {
        const response = await post(url, payload);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual(teError('This experiment is active. Stop it before editing or deleting.'));
      }
    });

    it('answers 400 naming the problem for an invalid updated algorithm', async () => {
      const id = await create({ type: 'single', data: stripe });
      const response = await post('/routing/update', { created_by: merchant, routing_algorithm_id: id, algorithm: { type: 'single' } });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(teError('Invalid routing rule configuration: data: invalid_shape: expected an object, got nothing (missing field)'));
      const split = await post('/routing/update', {
        created_by: merchant,
        routing_algorithm_id: id,
        algorithm: { type: 'volume_split', data: [{ split: 50, output: stripe }] },
      });
      expect(split.statusCode).toBe(400);
      expect(split.json()).toEqual(teError('Field validation failed: data: split_sum_not_100: volume split percentages add up to 50, expected 100'));
    });

    it('deletes an inactive algorithm, then reports it unknown', async () => {
      const id = await create({ type: 'single', data: stripe });
      const deleted = await post('/routing/delete', { created_by: merchant, routing_algorithm_id: id });
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toEqual({ status: 'deleted', routing_algorithm_id: id });
      expect((await post('/routing/delete', { created_by: merchant, routing_algorithm_id: id })).statusCode).toBe(400);
      expect((await post(`/routing/list/${merchant}`)).json()).toEqual([]);
    });
  });

  describe('POST /routing/hybrid', () => {
    // The dynamic half needs the merchant's sr-routing feature (decision-engine #433).
    const srRouting = async (enabled: boolean) => expect((await post(`/merchant-account/${merchant}/features/sr-routing`, { enabled })).statusCode).toBe(200);
    beforeEach(async () => srRouting(true));

    it('answers the static result alone, and refuses a dynamic-only request, while sr-routing is off', async () => {
      await srRouting(false);
      await activate(await create({ type: 'priority', data: [adyen, checkout] }));
      const both = await post('/routing/hybrid', {
        static_routing_request: { created_by: merchant, payment_id: 'p1', parameters: {} },
        dynamic_routing_request: decideBody(merchant, 'p1', { eligibleGatewayList: undefined }),
      });
      expect(both.statusCode, both.body).toBe(200);
      expect(both.json()).toEqual({ static_routing: expect.objectContaining({ status: 'success' }), evaluated_connectors: [adyen, checkout] });
      const dynamicOnly = await post('/routing/hybrid', { dynamic_routing_request: decideBody(merchant, 'p2') });
      expect(dynamicOnly.statusCode).toBe(400);
      expect(dynamicOnly.json()).toEqual(teError('SR routing is not enabled for this merchant (feature sr-routing)'));
      await srRouting(true);
      const decided = await post('/routing/hybrid', { dynamic_routing_request: decideBody(merchant, 'p3') });
      expect(decided.statusCode, decided.body).toBe(200);
      expect(decided.json()).toMatchObject({ dynamic_routing: { status: 'success' } });
    });

    it('answers 400 when neither request is given', async () => {
      const response = await post('/routing/hybrid', {});
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(
        teError('Invalid request received : At least one of static_routing_request or dynamic_routing_request must be provided.'),
      );
    });

    it('narrows the dynamic decision to the static output', async () => {
      await activate(await create({ type: 'priority', data: [adyen, checkout] }));
      const response = await post('/routing/hybrid', {
        static_routing_request: { created_by: merchant, parameters: {} },
        dynamic_routing_request: decideBody(merchant, 'hyb-1', { eligibleGatewayList: [] }),
      });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json() as {
        static_routing: { evaluated_output: unknown };
        dynamic_routing: { status: string; decision: { decided_gateway: string; priority_logic_output: { gws: string[] } } };
        evaluated_connectors: { gateway_name: string }[];
      };
      expect(body.static_routing.evaluated_output).toEqual([adyen, checkout]);
      expect(body.dynamic_routing.status).toBe('success');
      expect(['adyen', 'checkout']).toContain(body.dynamic_routing.decision.decided_gateway);
      // The static rule supplied the candidates: it is the decision's priority logic.
      expect(body.dynamic_routing.decision).toMatchObject({
        priority_logic_tag: 'priority_rule',
        priority_logic_output: { gws: ['adyen', 'checkout'], priorityLogicTag: 'priority_rule' },
        routing_approach: 'SR_SELECTION_V3_ROUTING',
      });
      expect(body.evaluated_connectors).toEqual([{ gateway_name: body.dynamic_routing.decision.decided_gateway, gateway_id: null }]);
    });

    it('answers the static result alone, and the euclid error when it fails without fallback', async () => {
      const missing = await post('/routing/hybrid', { static_routing_request: { created_by: merchant, parameters: {} } });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toEqual(teError(`No active routing algorithm found for the created_by entity : ${merchant}`));
      const fallback = await post('/routing/hybrid', { static_routing_request: { created_by: merchant, parameters: {}, fallback_output: [stripe] } });
      expect(fallback.statusCode).toBe(200);
      // No active algorithm with a fallback: the static half answers no_active_algorithm (as /routing/evaluate).
      expect(fallback.json()).toEqual({
        static_routing: {
          payment_id: null,
          status: 'no_active_algorithm',
          output: { type: 'priority', connectors: [stripe] },
          evaluated_output: [stripe],
          eligible_connectors: [stripe],
        },
        evaluated_connectors: [stripe],
      });
      await activate(await create({ type: 'single', data: adyen }));
      const ok = await post('/routing/hybrid', { static_routing_request: { created_by: merchant, payment_id: 'p9', parameters: {} } });
      expect(ok.json()).toMatchObject({ static_routing: { payment_id: 'p9', status: 'success' }, evaluated_connectors: [adyen] });
    });

    it('decides a dynamic-only request as /decide-gateway does, with the active rule', async () => {
      const id = await create(advanced);
      await activate(id);
      const dynamic = decideBody(merchant, 'hyb-dyn', { eligibleGatewayList: ['stripe', 'adyen', 'checkout'], rankingAlgorithm: 'PL_BASED_ROUTING' }) as {
        paymentInfo: Record<string, unknown>;
      };
      const response = await post('/routing/hybrid', { dynamic_routing_request: { ...dynamic, paymentInfo: { ...dynamic.paymentInfo, amount: 150 } } });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({
        dynamic_routing: {
          status: 'success',
          decision: {
            decided_gateway: 'checkout',
            routing_approach: 'PRIORITY_LOGIC',
            priority_logic_tag: 'Card Rule',
            priority_logic_output: { gws: ['checkout', 'adyen'] },
          },
          fallback_connectors: null,
        },
        evaluated_connectors: [{ gateway_name: 'checkout', gateway_id: null }],
      });
      expect(response.json()).not.toHaveProperty('static_routing');
      await t.worker.caughtUp();
      expect(t.events.filter((event) => event.type === 'rule.evaluated').map((event) => (event.payload as { source: string }).source)).toEqual([
        'decide_gateway',
      ]);
    });

    it('evaluates the active rule once when both halves are given', async () => {
      await activate(await create({ type: 'priority', data: [adyen, checkout] }));
      const response = await post('/routing/hybrid', {
        static_routing_request: { created_by: merchant, parameters: {} },
        dynamic_routing_request: decideBody(merchant, 'hyb-both', { eligibleGatewayList: [] }),
      });
      expect(response.statusCode, response.body).toBe(200);
      await t.worker.caughtUp();
      expect(t.events.filter((event) => event.type === 'rule.evaluated').map((event) => (event.payload as { source: string }).source)).toEqual(['hybrid']);
      expect(t.events.filter((event) => event.type === 'decision.created')).toHaveLength(1);
    });

    it("refuses another merchant's id in either part", async () => {
      const response = await post('/routing/hybrid', { static_routing_request: { created_by: 'intruded', parameters: {} } });
      expect(response.statusCode).toBe(403);
      const dynamic = await post('/routing/hybrid', { dynamic_routing_request: decideBody('intruded', 'p1') });
      expect(dynamic.statusCode).toBe(403);
    });
  });

  describe('inside /decide-gateway', () => {
    const decide = (overrides: Record<string, unknown> = {}, paymentInfo: Record<string, unknown> = {}) => {
      const body = decideBody(merchant, 'dec-1', overrides) as { paymentInfo: Record<string, unknown> };
      return post('/decide-gateway', { ...body, paymentInfo: { ...body.paymentInfo, ...paymentInfo } });
    };

    it('narrows and orders the candidates by the active rule and reports it as priority logic', async () => {
      const id = await create(advanced);
      await activate(id);
      const response = await decide(
        { eligibleGatewayList: ['stripe', 'adyen', 'checkout'], rankingAlgorithm: 'PL_BASED_ROUTING' },
        { paymentMethodType: 'CARD', amount: 150 },
      );
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json() as Record<string, unknown>;
      expect(body).toMatchObject({
        decided_gateway: 'checkout',
        fallback_gateways: ['adyen'],
        gateway_priority_map: { checkout: 1, adyen: 0.9 },
        routing_approach: 'PRIORITY_LOGIC',
        priority_logic_tag: 'Card Rule',
        priority_logic_output: { gws: ['checkout', 'adyen'], priorityLogicTag: 'Card Rule' },
      });
      await t.worker.caughtUp();
      const hit = t.events.find((event) => event.type === 'rule.evaluated');
      expect(hit?.payload).toMatchObject({
        source: 'decide_gateway',
        paymentId: 'dec-1',
        algorithmId: id,
        ruleName: 'Card Rule',
        status: 'success',
        evaluatedOutput: ['checkout', 'adyen'],
      });
    });

    it('scores the narrowed candidates by success rate for SR_BASED_ROUTING', async () => {
      await activate(await create({ type: 'priority', data: [adyen, checkout] }));
      const response = await decide({ eligibleGatewayList: ['stripe', 'adyen', 'checkout'], rankingAlgorithm: 'SR_BASED_ROUTING' });
      const body = response.json() as { gateway_priority_map: Record<string, number>; routing_approach: string; priority_logic_tag: string };
      expect(Object.keys(body.gateway_priority_map).sort()).toEqual(['adyen', 'checkout']);
      expect(body.routing_approach).toBe('SR_SELECTION_V3_ROUTING');
      expect(body.priority_logic_tag).toBe('priority_rule');
    });

    it('leaves the decision alone when no rule is active or the rule shares no gateway', async () => {
      const plain = (await decide({ eligibleGatewayList: ['stripe', 'adyen'] })).json() as Record<string, unknown>;
      expect(plain['priority_logic_tag']).toBeNull();
      await activate(await create({ type: 'single', data: checkout }));
      const unrelated = (await decide({ eligibleGatewayList: ['stripe', 'adyen'] })).json() as {
        gateway_priority_map: Record<string, number>;
        priority_logic_tag: unknown;
      };
      expect(Object.keys(unrelated.gateway_priority_map).sort()).toEqual(['adyen', 'stripe']);
      expect(unrelated.priority_logic_tag).toBeNull();
    });

    it('sees a deactivation on the very next decision', async () => {
      const id = await create({ type: 'single', data: adyen });
      await activate(id);
      expect((await decide({ eligibleGatewayList: ['stripe', 'adyen'] })).json()).toMatchObject({
        decided_gateway: 'adyen',
        priority_logic_tag: 'straight_through_rule',
      });
      expect((await post('/routing/deactivate', { created_by: merchant, routing_algorithm_id: id })).statusCode).toBe(200);
      expect((await decide({ eligibleGatewayList: ['stripe', 'adyen'] })).json()).toMatchObject({ priority_logic_tag: null });
    });
  });

  it('GET /config/routing-keys answers the routing keys view', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/config/routing-keys', headers: withKey(key) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(JSON.parse(JSON.stringify(routingKeysView())));
    expect((response.json() as { keys: Record<string, { type: string }> }).keys['amount']?.type).toBe('integer');
  });
});

describe('random rule trees evaluate the same in-process and over HTTP', () => {
  it('create → list → evaluate agrees with the compiled algorithm', async () => {
    const t = await createTestApp();
    const key = (await createMerchant(t.app, merchant)).apiKey;
    const post = (url: string, payload?: unknown) =>
      t.app.inject({ method: 'POST', url, headers: withKey(key), ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
    try {
      await fc.assert(
        fc.asyncProperty(
          routingAlgorithmArbitrary,
          fc.array(evaluationParametersArbitrary, { minLength: 1, maxLength: 3 }),
          async (algorithm, parameterSets) => {
            const wire = JSON.parse(JSON.stringify(algorithm)) as unknown;
            const parsed = parseRoutingAlgorithm(wire);
            const created = await post('/routing/create', { name: 'prop', created_by: merchant, algorithm: wire });
            if (!parsed.ok) {
              expect(created.statusCode).toBe(400);
              return;
            }
            expect(created.statusCode, created.body).toBe(200);
            const id = (created.json() as { rule_id: string }).rule_id;
            const listed = (await post(`/routing/list/${merchant}`)).json() as { id: string; algorithm_data: unknown }[];
            expect(listed.find((item) => item.id === id)?.algorithm_data).toEqual(JSON.parse(JSON.stringify(parsed.algorithm)));
            expect((await post('/routing/activate', { created_by: merchant, routing_algorithm_id: id })).statusCode).toBe(200);
            const compiled = compileRoutingAlgorithm(parsed.algorithm);
            for (const parameters of parameterSets) {
              const wireParameters = JSON.parse(JSON.stringify(parameters)) as Record<string, unknown>;
              const response = await post('/routing/evaluate', { created_by: merchant, parameters: wireParameters });
              const checked = validateEvaluationParameters(wireParameters);
              if (!checked.ok) {
                expect(response.statusCode).toBe(400);
                continue;
              }
              const local = compiled.evaluate(checked.parameters, neverHedge);
              if (!local.ok) {
                expect(response.statusCode).toBe(400);
                expect((response.json() as { message: string }).message).toBe(`Invalid request received : ${local.error.message}`);
                continue;
              }
              const evaluation = applyFallbackOutput(local.evaluation, null);
              expect(response.statusCode, response.body).toBe(200);
              expect(response.json()).toEqual(
                JSON.parse(
                  JSON.stringify({
                    payment_id: null,
                    status: evaluation.status,
                    output: evaluation.output,
                    evaluated_output: evaluation.evaluatedOutput,
                    eligible_connectors: evaluation.evaluatedOutput,
                  }),
                ),
              );
            }
            expect((await post('/routing/deactivate', { created_by: merchant, routing_algorithm_id: id })).statusCode).toBe(200);
          },
        ),
        { numRuns: 40 },
      );
    } finally {
      await t.close();
    }
  });
});
