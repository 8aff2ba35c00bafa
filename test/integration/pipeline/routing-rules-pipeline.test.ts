import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../cli/start-service.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { decideBody } from '../../helpers/test-app.js';
import { overviewKpi } from './analytics-shapes.js';
import { call, createMerchant, createPipelineNamespace, deletePipelineNamespace, pipelineEnv, readReport, type PipelineNamespace } from './pipeline-harness.js';
import { createPinoSink } from './pino-sink.js';

/** Cards above 100 go to checkout, then adyen; everything else to stripe. */
const cardRule = {
  type: 'advanced',
  data: {
    globals: {},
    default_selection: { priority: [{ gateway_name: 'stripe', gateway_id: null }] },
    rules: [
      {
        name: 'Card Rule',
        routing_type: 'priority',
        output: {
          priority: [
            { gateway_name: 'checkout', gateway_id: null },
            { gateway_name: 'adyen', gateway_id: null },
          ],
        },
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

type Report = Awaited<ReturnType<typeof call>>;

/**
 * Rule activation → an evaluation and a decision → the rule traffic in analytics, on both spines:
 * embedded (memory bus, chDB; awaiting the workers is enough) and distributed (Kafka → ClickHouse;
 * the reads are polled until the sink has written).
 */
for (const distributed of [false, true]) {
  describe(`routing rules in analytics (${distributed ? 'Redis, Kafka, ClickHouse' : 'embedded, chDB'})`, () => {
    const merchantId = distributed ? 'rules-dist' : 'rules-embedded';
    let namespace: PipelineNamespace;
    let server: RunningServer | undefined;
    let auth: Record<string, string>;

    beforeAll(async () => {
      namespace = await createPipelineNamespace();
      server = await startServer(loadConfig(pipelineEnv(namespace, { distributed, embeddedWorkers: true })), createPinoSink().logger);
      auth = await createMerchant(server.url, merchantId);
    });

    afterAll(async () => {
      await server?.stop();
      if (namespace !== undefined) await deletePipelineNamespace(namespace, { distributed });
    });

    const report = (path: string, accept: (response: Report) => boolean) => readReport(server!, { distributed, auth }, path, accept);

    it('shows the rule hit of a decision in the overview and routing stats, and the evaluation in preview-trace', async () => {
      const url = server!.url;
      const created = await call(url, 'POST', '/routing/create', { name: 'cards', created_by: merchantId, algorithm: cardRule }, auth);
      expect(created.status).toBe(200);
      const ruleId = created.body.rule_id as string;
      expect((await call(url, 'POST', '/routing/activate', { created_by: merchantId, routing_algorithm_id: ruleId }, auth)).status).toBe(200);

      const evaluated = await call(
        url,
        'POST',
        '/routing/evaluate',
        {
          created_by: merchantId,
          payment_id: 'rule-eval-1',
          parameters: { payment_method: { type: 'enum_variant', value: 'card' }, amount: { type: 'number', value: 500 } },
        },
        auth,
      );
      expect(evaluated.status).toBe(200);
      expect(evaluated.body.status).toBe('success');

      const decided = await call(
        url,
        'POST',
        '/decide-gateway',
        decideBody(merchantId, 'rule-pay-1', {
          eligibleGatewayList: ['stripe', 'adyen', 'checkout'],
          rankingAlgorithm: 'PL_BASED_ROUTING',
        }),
        auth,
      );
      // decideBody pays 100, not above 100: the rule's default selection (stripe), tagged with the algorithm's name.
      expect(decided.status).toBe(200);
      expect(decided.body).toMatchObject({ decided_gateway: 'stripe', priority_logic_tag: 'cards' });
      const card = decideBody(merchantId, 'rule-pay-2', { eligibleGatewayList: ['stripe', 'adyen', 'checkout'], rankingAlgorithm: 'PL_BASED_ROUTING' }) as {
        paymentInfo: Record<string, unknown>;
      };
      const hit = await call(url, 'POST', '/decide-gateway', { ...card, paymentInfo: { ...card.paymentInfo, amount: 250 } }, auth);
      expect(hit.status).toBe(200);
      expect(hit.body).toMatchObject({ decided_gateway: 'checkout', priority_logic_tag: 'Card Rule' });

      // The overview's parts are separate reads: a sink write can land between them, so wait for both.
      const overview = await report(
        '/analytics/overview?range=1d',
        (response) => response.status === 200 && overviewKpi(response.body, 'Rule hits') === 2 && response.body.top_rules.length === 2,
      );
      // The first decision fell to the default selection (named after the algorithm), the second hit Card Rule.
      expect(overview.body.top_rules).toEqual(
        expect.arrayContaining([
          { rule_name: 'Card Rule', count: 1 },
          { rule_name: 'cards', count: 1 },
        ]),
      );
      const stats = await report('/analytics/routing-stats?range=1d', (response) => response.status === 200 && response.body.top_rules.length > 0);
      expect(stats.body.top_rules).toContainEqual({ rule_name: 'Card Rule', count: 1 });

      const trace = await report(
        '/analytics/preview-trace?payment_id=rule-eval-1&range=1d',
        (response) => response.status === 200 && response.body.timeline.some((entry: { flow_type: string }) => entry.flow_type === 'routing_evaluate_advanced'),
      );
      const entry = trace.body.timeline.find((item: { flow_type: string }) => item.flow_type === 'routing_evaluate_advanced');
      expect(entry).toMatchObject({ payment_id: 'rule-eval-1', rule_name: 'Card Rule', status: 'success', gateway: 'checkout' });
    });
  });
}
