import type { FastifyInstance } from 'fastify';
import { SwitchyardError } from '../../src/errors/switchyard-error.js';
import type { RuleConfigLookup, RuleConfigRequest } from '../../src/generated/schema-types.js';
import type { ConfigName } from '../../src/ports/state-store.js';
import type { AppDeps } from '../app-deps.js';
import { ref } from '../http-schemas.js';

type Algorithm = RuleConfigLookup['algorithm'];

/** Wire label per rule type, used in every success message ("Success Rate Configuration created successfully"). */
const labelOf: Readonly<Record<Algorithm, string>> = {
  successRate: 'Success Rate',
  elimination: 'Elimination',
  debitRouting: 'Debit Routing',
};

const notFound = () => new SwitchyardError('SY_RULE_CONFIG_NOT_FOUND', { message: 'Rule configuration not found' });

/**
 * Rule Configuration: POST /rule/create|get|update|delete for successRate, elimination and
 * debitRouting. Writes go to the store and invalidate every replica's cache before answering, so
 * the very next decision sees them. Elimination keeps 1.4.x's quirks: create and update overwrite.
 */
export async function ruleConfigurationRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  async function requireMerchant(merchantId: string): Promise<void> {
    if ((await deps.state.merchants.get(merchantId)) === undefined) {
      throw new SwitchyardError('SY_MERCHANT_NOT_FOUND', { message: 'MerchantId not found' });
    }
  }

  async function write(body: RuleConfigRequest, mode: 'create' | 'update'): Promise<void> {
    const { merchant_id: merchantId, config } = body;
    // Elimination never refuses: 1.4.x overwrites on create and on update.
    const effective = config.type === 'elimination' ? 'upsert' : mode;
    const result = await deps.state.configs.put(merchantId, config.type as ConfigName, config.data as never, effective);
    if (result === 'exists') throw new SwitchyardError('SY_RULE_CONFIG_EXISTS', { message: 'Rule configuration already exists' });
    if (result === 'missing') throw notFound();
  }

  for (const mode of ['create', 'update'] as const) {
    app.post<{ Body: RuleConfigRequest }>(
      `/rule/${mode}`,
      {
        schema: { tags: ['Rule Configuration'], summary: `${mode === 'create' ? 'Create' : 'Update'} a merchant's rule configuration`, body: ref('RuleConfigRequest') },
        config: { flowType: `rule_config_${mode}`, auth: 'either', merchantFrom: { body: ['merchant_id'] } },
      },
      async (request) => {
        const body = request.body;
        await requireMerchant(body.merchant_id);
        await write(body, mode);
        request.log.info({ merchantId: body.merchant_id, type: body.config.type, mode }, 'rule configuration written');
        return {
          message: `${labelOf[body.config.type]} Configuration ${mode}d successfully`,
          merchant_id: body.merchant_id,
          config: body.config,
        };
      },
    );
  }

  app.post<{ Body: RuleConfigLookup }>(
    '/rule/get',
    { schema: { tags: ['Rule Configuration'], summary: "Read a merchant's rule configuration", body: ref('RuleConfigLookup') }, config: { flowType: 'rule_config_get', auth: 'either', merchantFrom: { body: ['merchant_id'] } } },
    async (request) => {
      const { merchant_id: merchantId, algorithm } = request.body;
      await requireMerchant(merchantId);
      const data = await deps.state.configs.get(merchantId, algorithm);
      if (data === undefined) throw notFound();
      return { merchant_id: merchantId, config: { type: algorithm, data } };
    },
  );

  app.post<{ Body: RuleConfigLookup }>(
    '/rule/delete',
    { schema: { tags: ['Rule Configuration'], summary: "Delete a merchant's rule configuration", body: ref('RuleConfigLookup') }, config: { flowType: 'rule_config_delete', auth: 'either', merchantFrom: { body: ['merchant_id'] } } },
    async (request) => {
      const { merchant_id: merchantId, algorithm } = request.body;
      await requireMerchant(merchantId);
      if (!(await deps.state.configs.delete(merchantId, algorithm))) throw notFound();
      request.log.info({ merchantId, algorithm }, 'rule configuration deleted');
      return { message: `${labelOf[algorithm]} Configuration deleted successfully`, merchant_id: merchantId };
    },
  );
}
