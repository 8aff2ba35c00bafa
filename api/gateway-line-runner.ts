import type { FastifyInstance } from 'fastify';
import type { GatewayLineAnswer, GatewayLineRunner } from '../src/generation/batch/gateway-line.js';
import { batchLineHeader, type BatchLineGrants } from './batch-line-grants.js';
import { openAiServerError } from './wire/openai-error.js';

function headerText(value: string | string[] | number | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Runs OpenAI batch lines through this app's own gateway routes with an in-process `inject`: the
 * very path a direct `POST <url>` takes (the guard, the key's limits and budget, validation, guards,
 * routing, the response cache, `llm.call` records and spend), as the batch's API key by a one-use
 * grant. The answer is what the route sent: its status and JSON body.
 */
export function createGatewayLineRunner(app: FastifyInstance, grants: BatchLineGrants): GatewayLineRunner {
  return {
    async run(call): Promise<GatewayLineAnswer> {
      const grant = grants.grant(call.merchantId, call.apiKeyId, { batchId: call.batchId, jobId: call.jobId, jobAttempt: call.jobAttempt });
      try {
        const response = await app.inject({
          method: 'POST',
          url: call.url,
          headers: { 'content-type': 'application/json', 'x-request-id': call.requestId, [batchLineHeader]: grant.token },
          payload: JSON.stringify(call.body),
        });
        let body: unknown;
        try {
          body = response.json();
        } catch {
          // Every gateway route answers JSON; anything else is ours to explain, not the client's.
          body = openAiServerError();
        }
        const provider = headerText(response.headers['x-switchyard-provider']);
        const model = headerText(response.headers['x-switchyard-model']);
        return { statusCode: response.statusCode, body, ...(provider !== undefined ? { provider } : {}), ...(model !== undefined ? { model } : {}) };
      } finally {
        grant.revoke();
      }
    },
  };
}
