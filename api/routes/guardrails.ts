import type { FastifyInstance } from 'fastify';
import type { MerchantGuardrails, MerchantGuardrailsView } from '../../src/generated/schema-types.js';
import type { GuardrailSettingsService } from '../../src/guardrails/guardrail-settings-service.js';
import { ref } from '../http-schemas.js';
import { credentialMerchantOf } from '../plugins/authentication.js';

const tags = ['Guardrails'];
const guard = { auth: 'either', merchantFrom: 'credential' } as const;

/**
 * `/guardrails`: the caller's merchant's guardrails (issue 38): its own settings and those attached to its
 * API keys and route groups, combined with the defaults (card numbers masked) only ever to the stricter.
 */
export async function guardrailRoutes(app: FastifyInstance, deps: { readonly guardrails: GuardrailSettingsService }): Promise<void> {
  app.get(
    '/guardrails',
    {
      schema: { tags, summary: "The merchant's guardrails, the defaults and the merchant-wide result", response: { 200: ref('MerchantGuardrailsView') } },
      config: { ...guard, flowType: 'guardrails_get', minRole: 'member' },
    },
    async (request): Promise<MerchantGuardrailsView> => deps.guardrails.get(credentialMerchantOf(request)),
  );

  app.put<{ Body: MerchantGuardrails }>(
    '/guardrails',
    {
      schema: {
        tags,
        summary:
          "Replace the merchant's guardrails (settings, per key, per route group); a custom pattern that could backtrack catastrophically is refused with 400",
        body: ref('MerchantGuardrails'),
        response: { 200: ref('MerchantGuardrailsView') },
      },
      config: { ...guard, flowType: 'guardrails_put' },
    },
    async (request): Promise<MerchantGuardrailsView> => {
      const merchantId = credentialMerchantOf(request);
      const view = await deps.guardrails.put(merchantId, request.body);
      request.log.info({ merchantId }, 'guardrails replaced');
      return view;
    },
  );

  app.delete(
    '/guardrails',
    { schema: { tags, summary: "Remove the merchant's guardrails (the defaults stay)" }, config: { ...guard, flowType: 'guardrails_delete' } },
    async (request) => ({ deleted: await deps.guardrails.delete(credentialMerchantOf(request)) }),
  );
}
