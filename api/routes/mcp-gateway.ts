import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { effectivePolicy } from '../../src/governance/key-policy.js';
import { providerGuardChecks } from '../../src/generation/guard-checks.js';
import { GuardrailResolver } from '../../src/guardrails/guardrail-resolver.js';
import type { GuardSession } from '../../src/guardrails/guard-session.js';
import type { GuardedCall } from '../../src/guardrails/publish-guard-outcomes.js';
import type { Logger } from '../../src/logging/logger.js';
import type { StateStore } from '../../src/ports/state-store.js';
import { type GatewayToolGuards, McpGateway, mcpSessionEndedKey, merchantOfToolsChangedKey, sessionOfEndedKey } from '../../src/toolkit/mcp-gateway.js';
import type { MerchantMcp } from '../../src/toolkit/merchant-mcp.js';
import type { NeuroLink } from '../../src/toolkit/neurolink.js';
import { VERSION } from '../../src/toolkit/version.js';
import { McpGatewaySessions, type GatewayRequestCaller } from '../mcp-gateway-sessions.js';
import { credentialOf } from '../plugins/authentication.js';
import { hijackedHead } from '../plugins/security-headers.js';
import { sendWebResponse, webRequestOf } from '../wire/web-fetch-bridge.js';

export interface McpGatewayRouteDeps {
  readonly toolkit: NeuroLink;
  readonly merchantMcp: MerchantMcp;
  readonly state: Pick<StateStore, 'configs' | 'mcpSessions' | 'onInvalidation' | 'publishInvalidation'>;
  readonly logger: Logger;
  readonly now: () => number;
  /** Whose guards apply to a tool call (default: the merchant's and key's settings in `state.configs`). */
  readonly guardrails?: GuardrailResolver;
  /** Where each tool call's guard outcomes go (the `guard.applied` events). */
  readonly guardOutcomes?: (session: GuardSession, call: GuardedCall) => void;
}

const tags = ['MCP'];
const description =
  "MCP's streamable HTTP transport (protocol 2025-03-26 and later): one MCP server with every tool the caller's merchant may use, named `<server>__<tool>` (`switchyard__<tool>` for the built-in tools); see docs/gateway.md, \"MCP gateway\". POST carries JSON-RPC messages (answered as JSON or an SSE stream, `text/event-stream`), GET opens the session's SSE stream (`notifications/tools/list_changed`), DELETE ends the session. Errors outside JSON-RPC answers are JSON-RPC errors with a null id; an unknown or expired `mcp-session-id` is 404 (start a new session).";
/** Not JSON in, not JSON out (SSE): documented without a body schema, as /api/stream is. */
const produces = ['application/json', 'text/event-stream'];
/** The success answers, for the OpenAPI document only (the transport writes them on the hijacked socket). */
const sseStream = { 'text/event-stream': { schema: { type: 'string', description: 'server-sent events, each `data` one JSON-RPC message' } } };
const postAnswers = {
  200: {
    description: 'The JSON-RPC answers: one JSON body, or an SSE stream that carries them (and the notifications and requests the server sends meanwhile)',
    content: { 'application/json': { schema: { type: 'object', additionalProperties: true } }, ...sseStream },
  },
  202: { description: 'Only notifications or responses were sent: accepted', type: 'null' },
};
const getAnswers = { 200: { description: "The session's SSE stream (server notifications such as tools/list_changed)", content: sseStream } };
const deleteAnswers = { 200: { description: 'The session is ended on every replica', type: 'null' } };

/** The replica's sessions over the domain's gateway, told of server changes and ended sessions on every replica; closed with the app. */
function openSessions(app: FastifyInstance, deps: McpGatewayRouteDeps): McpGatewaySessions {
  const gateway = new McpGateway({
    merchantMcp: deps.merchantMcp,
    localTools: (merchantId) => deps.toolkit.localToolsFor(merchantId),
    ...(deps.merchantMcp.toolRunRecorder !== undefined ? { recordToolRun: deps.merchantMcp.toolRunRecorder } : {}),
    guards: toolGuardsOf(deps),
  });
  const sessions = new McpGatewaySessions({
    gateway,
    store: deps.state.mcpSessions,
    logger: deps.logger,
    now: deps.now,
    version: VERSION,
    publishEnded: (sessionId) => deps.state.publishInvalidation(mcpSessionEndedKey(sessionId)),
  });
  // Registrations on any replica reach the sessions of every replica (MerchantMcp publishes the key);
  // a session ended on one replica closes its transports (and SSE streams) on the others.
  const unsubscribe = deps.state.onInvalidation((key) => {
    const merchantId = merchantOfToolsChangedKey(key);
    if (merchantId !== undefined) sessions.notifyToolsChanged(merchantId);
    const ended = sessionOfEndedKey(key);
    if (ended !== undefined) sessions.forget(ended);
  });
  // preClose, not onClose: the server waits for open connections before onClose, and a session's
  // SSE stream stays open until its transport is closed.
  app.addHook('preClose', async () => {
    unsubscribe();
    await sessions.close();
  });
  return sessions;
}

/** The guard pipeline over the gateway's tool calls: the caller's merchant's and key's guardrails, outcomes published with surface `mcp`. */
function toolGuardsOf(deps: McpGatewayRouteDeps): GatewayToolGuards {
  const resolver = deps.guardrails ?? new GuardrailResolver({ configs: deps.state.configs });
  const publish = deps.guardOutcomes;
  return {
    sessionFor: (caller) => resolver.sessionFor({ merchantId: caller.merchantId, apiKeyId: caller.apiKeyId }),
    checks: providerGuardChecks(deps.toolkit.providerCalls, 'gateway'),
    ...(publish !== undefined
      ? {
          onGuarded: (session, caller) =>
            publish(session, { merchantId: caller.merchantId, surface: 'mcp', requestId: caller.requestId, apiKeyId: caller.apiKeyId }),
        }
      : {}),
  };
}

/** Who asks, read on every request: the key's allow-list is its policy's `mcp` over the merchant's default. */
async function callerOf(request: FastifyRequest, deps: McpGatewayRouteDeps): Promise<GatewayRequestCaller> {
  const credential = credentialOf(request);
  const requestId = String(request.id);
  if (credential.kind === 'session') {
    return { merchantId: credential.claims.merchantId, principal: `user:${credential.claims.userId}`, requestId };
  }
  const policy = effectivePolicy(credential.policy, await deps.state.configs.get(credential.merchantId, 'apiKeyDefaults'));
  return {
    merchantId: credential.merchantId,
    principal: `key:${credential.keyId}`,
    requestId,
    apiKeyId: credential.keyId,
    ...(policy.mcp !== undefined ? { allowedTools: policy.mcp.allowedTools } : {}),
  };
}

/** Hands the request to the session's transport and writes its answer on the hijacked socket. */
async function serve(request: FastifyRequest, reply: FastifyReply, sessions: McpGatewaySessions, caller: GatewayRequestCaller): Promise<FastifyReply> {
  reply.hijack();
  try {
    const response = await sessions.handle(webRequestOf(request), caller, request.method === 'POST' ? request.body : undefined);
    await sendWebResponse(reply, response);
  } catch (error) {
    request.log.error({ err: error }, 'mcp gateway request failed');
    if (!reply.raw.headersSent) {
      reply.raw.writeHead(500, hijackedHead(reply, { 'content-type': 'application/json' }));
      reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Something went wrong' }, id: null }));
    } else reply.raw.end();
  }
  return reply;
}

/**
 * `/mcp`: the MCP gateway (issue 39). The guard authenticates every request (an API key as
 * `Authorization: Bearer DE_…` or `x-api-key`; a dashboard session also works), POSTs count
 * against the key's rpm and max_concurrent, and the key's MCP allow-list (its policy's `mcp`, over
 * the merchant's default) is read on every request. The rest is the MCP SDK's transport.
 */
export async function mcpGatewayRoutes(app: FastifyInstance, deps: McpGatewayRouteDeps): Promise<void> {
  const sessions = openSessions(app, deps);
  const handler = async (request: FastifyRequest, reply: FastifyReply) => serve(request, reply, sessions, await callerOf(request, deps));
  const config = { auth: 'either', merchantFrom: 'credential', envelope: 'jsonrpc' } as const;
  app.post(
    '/mcp',
    {
      schema: { tags, summary: 'MCP gateway: send JSON-RPC messages (initialize, tools/list, tools/call, …)', description, produces, response: postAnswers },
      // A tool call spends no tokens: the key's rpm and max_concurrent apply, as on the payment routes.
      config: { ...config, keyLimits: { kind: 'payment' } },
    },
    handler,
  );
  app.get(
    '/mcp',
    {
      schema: {
        tags,
        summary: "MCP gateway: open the session's server-sent event stream (tools/list_changed)",
        description,
        produces: ['text/event-stream'],
        response: getAnswers,
      },
      config,
    },
    handler,
  );
  app.delete('/mcp', { schema: { tags, summary: 'MCP gateway: end the session', description, response: deleteAnswers }, config }, handler);
  registerGatewayTools(app, deps);
}

const gatewayToolView = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'description', 'kind', 'server', 'owner', 'destructive'],
  properties: {
    name: { type: 'string', description: 'the name /mcp serves it under: `<server>__<tool>` (`switchyard__<tool>` for built-in and custom tools)' },
    description: { type: 'string' },
    kind: { enum: ['mcp', 'built-in', 'custom'] },
    server: { type: ['string', 'null'], description: 'the MCP server it runs on (null: a built-in or custom tool)' },
    owner: { type: ['string', 'null'], enum: ['merchant', 'operator', null], description: "whose server: the merchant's own or the operator's" },
    destructive: { type: 'boolean', description: 'the tool asks for confirmation before it runs (the MCP client asks its user)' },
  },
} as const;

function gatewayToolWire(tool: Awaited<ReturnType<McpGateway['listTools']>>[number]) {
  const { target } = tool;
  return {
    name: tool.name,
    description: tool.description,
    kind: target.kind === 'mcp' ? 'mcp' : target.category,
    server: target.kind === 'mcp' ? target.serverId : null,
    owner: target.kind === 'mcp' ? target.owner : null,
    destructive: tool.destructive,
  };
}

/**
 * `GET /api/mcp/gateway-tools`: what `/mcp` serves the caller, without an MCP session (the
 * dashboard's MCP page): every tool under its gateway name; for an API key, its allow-list applied.
 */
function registerGatewayTools(app: FastifyInstance, deps: McpGatewayRouteDeps): void {
  // Listing runs no tool: a gateway of its own without the sessions' run recorder and guards lists the same tools.
  const gateway = new McpGateway({ merchantMcp: deps.merchantMcp, localTools: (merchantId) => deps.toolkit.localToolsFor(merchantId) });
  app.get(
    '/api/mcp/gateway-tools',
    {
      schema: {
        tags,
        summary:
          "The tools the MCP gateway (/mcp) serves the caller, by their namespaced names (an API key's allow-list applied; a session sees every tool of its merchant)",
        response: {
          200: {
            type: 'object',
            additionalProperties: false,
            required: ['path', 'tools'],
            properties: {
              path: { type: 'string', description: 'the MCP endpoint, relative to this service' },
              tools: { type: 'array', items: gatewayToolView },
            },
          },
        },
      },
      config: { auth: 'either', merchantFrom: 'credential' },
    },
    async (request) => {
      const caller = await callerOf(request, deps);
      const tools = await gateway.listTools({
        merchantId: caller.merchantId,
        ...(caller.allowedTools !== undefined ? { allowedTools: caller.allowedTools } : {}),
      });
      return { path: '/mcp', tools: tools.map(gatewayToolWire) };
    },
  );
}
