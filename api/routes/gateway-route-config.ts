/**
 * What every LLM gateway route (`/v1/*`) declares: a session or an API key (sent as OpenAI's
 * `Authorization: Bearer DE_…`) whose merchant the call is for, and OpenAI's error body
 * (api/plugins/errors.ts answers it) so the official clients raise their own error classes.
 */
export const gatewayGuard = { auth: 'either', merchantFrom: 'credential', envelope: 'openai' } as const;

export const gatewayTags = ['OpenAI-compatible gateway'];
