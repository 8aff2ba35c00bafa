import type { FastifyInstance } from 'fastify';
import { deleteRuleConfig, readRuleConfig, writeRuleConfig, type RuleAlgorithm } from '../../src/decision/inputs/rule-configuration.js';
import type { RuleConfigLookup, RuleConfigRequest } from '../../src/generated/schema-types.js';
import type { AppDeps } from '../app-deps.js';
import { ref } from '../http-schemas.js';

/** Wire label per rule type, used in every success message ("Success Rate Configuration created successfully"). */
const labelOf: Readonly<Record<RuleAlgorithm, string>> = {
  successRate: 'Success Rate',
  elimination: 'Elimination',
  debitRouting: 'Debit Routing',
};

const tags = ['Rule Configuration'];

function registerWriteRuleConfig(app: FastifyInstance, deps: AppDeps, mode: 'create' | 'update'): void {
  app.post<{ Body: RuleConfigRequest }>(
    `/rule/${mode}`,
    {
      schema: { tags, summary: `${mode === 'create' ? 'Create' : 'Update'} a merchant's rule configuration`, body: ref('RuleConfigRequest') },
      config: { flowType: `rule_config_${mode}`, auth: 'either', merchantFrom: { body: ['merchant_id'] } },
    },
    async (request) => {
      const body = request.body;
      await writeRuleConfig(deps.state, body.merchant_id, body.config, mode);
      request.log.info({ merchantId: body.merchant_id, type: body.config.type, mode }, 'rule configuration written');
      return {
        message: `${labelOf[body.config.type]} Configuration ${mode}d successfully`,
        merchant_id: body.merchant_id,
        config: body.config,
      };
    },
  );
}

function registerReadRuleConfig(app: FastifyInstance, deps: AppDeps): void {
  app.post<{ Body: RuleConfigLookup }>(
    '/rule/get',
    {
      schema: { tags, summary: "Read a merchant's rule configuration", body: ref('RuleConfigLookup') },
      config: { flowType: 'rule_config_get', auth: 'either', merchantFrom: { body: ['merchant_id'] }, minRole: 'member' },
    },
    async (request) => {
      const { merchant_id: merchantId, algorithm } = request.body;
      return { merchant_id: merchantId, config: await readRuleConfig(deps.state, merchantId, algorithm) };
    },
  );
}

function registerDeleteRuleConfig(app: FastifyInstance, deps: AppDeps): void {
  app.post<{ Body: RuleConfigLookup }>(
    '/rule/delete',
    {
      schema: { tags, summary: "Delete a merchant's rule configuration", body: ref('RuleConfigLookup') },
      config: { flowType: 'rule_config_delete', auth: 'either', merchantFrom: { body: ['merchant_id'] } },
    },
    async (request) => {
      const { merchant_id: merchantId, algorithm } = request.body;
      await deleteRuleConfig(deps.state, merchantId, algorithm);
      request.log.info({ merchantId, algorithm }, 'rule configuration deleted');
      return { message: `${labelOf[algorithm]} Configuration deleted successfully`, merchant_id: merchantId };
    },
  );
}

/**
 * Rule Configuration: POST /rule/create|get|update|delete for successRate, elimination and
 * debitRouting (src/decision/inputs/rule-configuration.ts). Writes invalidate every replica's
 * cache before answering, so the very next decision sees them. Elimination keeps 1.4.x's quirks:
 * create and update overwrite.
 */
export async function ruleConfigurationRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  registerWriteRuleConfig(app, deps, 'create');
  registerWriteRuleConfig(app, deps, 'update');
  registerReadRuleConfig(app, deps);
  registerDeleteRuleConfig(app, deps);
}
