import { describe, expect, it } from 'vitest';
import llmCall from '../../../schemas/events/llm.call.v1.json' with { type: 'json' };
import llmApiUsage from '../../../schemas/http/analytics/llm-api-usage.json' with { type: 'json' };
import { parseAnalyticsQuery } from '../../../src/analytics/parse-analytics-query.js';
import { callApiOf } from '../../../src/generation/llm-call-record.js';
import { llmCallPayload } from '../../../src/generation/publish-llm-calls.js';
import { llmCallApis } from '../../../src/ports/llm-call-api.js';
import { validateEvent } from '../../../src/events/validate-event.js';

describe('the API a model call came through', () => {
  it('is one list for the event schema, the overview schema and the code', () => {
    expect(llmCall.properties.api.enum).toEqual([...llmCallApis, null]);
    expect(llmApiUsage.properties.api.enum).toEqual([...llmCallApis, null]);
  });

  it('is the route-named API, else the surface that is one API, else none', () => {
    expect(callApiOf({ surface: 'gateway', api: 'messages' })).toBe('messages');
    expect(callApiOf({ surface: 'http' })).toBe('toolkit');
    expect(callApiOf({ surface: 'sse' })).toBe('toolkit');
    expect(callApiOf({ surface: 'websocket' })).toBe('toolkit');
    expect(callApiOf({ surface: 'batch' })).toBe('batch');
    expect(callApiOf({ surface: 'library' })).toBeUndefined();
    expect(callApiOf({ surface: 'cli' })).toBeUndefined();
    expect(callApiOf({})).toBeUndefined();
  });

  it('goes into the llm.call payload (null when none), which validates, as do events of older publishers without it', () => {
    const record = {
      provider: 'openai',
      model: 'gpt-4o-mini',
      operation: 'generate',
      inputTokens: 1,
      outputTokens: 1,
      costUsd: 0,
      latencyMs: 1,
      outcome: 'success',
      fallbackHops: 0,
    } as const;
    const responses = llmCallPayload({ ...record, attribution: { surface: 'gateway', api: 'responses', merchantId: 'm' } });
    expect(responses.api).toBe('responses');
    const library = llmCallPayload({ ...record, attribution: {} });
    expect(library.api).toBeNull();
    const envelope = (payload: object) => ({
      id: '0193a000-0000-7000-8000-000000000001',
      type: 'llm.call',
      version: 1,
      occurredAt: 1,
      merchantId: 'm',
      payload,
    });
    expect(() => validateEvent(envelope(responses))).not.toThrow();
    expect(() => validateEvent(envelope(library))).not.toThrow();
    const { api: _omitted, ...older } = responses;
    expect(() => validateEvent(envelope(older))).not.toThrow();
    expect(() => validateEvent(envelope({ ...responses, api: 'completions' }))).toThrow(expect.objectContaining({ code: 'SY_EVENT_INVALID' }));
  });

  it('filters the analytics by the api query parameter, refusing a name outside the list', () => {
    const context = { merchantId: 'm', nowMs: 1_800_000_000_000, endpoint: 'llm/overview' } as const;
    const parsed = parseAnalyticsQuery({ api: 'messages' }, context);
    expect(parsed.ok && parsed.query.api).toBe('messages');
    const none = parseAnalyticsQuery({ api: '' }, context);
    expect(none.ok && none.query.api).toBeNull();
    const bad = parseAnalyticsQuery({ api: 'completions' }, context);
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.issues).toEqual([
      { parameter: 'api', message: 'api must be one of chat_completions, responses, messages, embeddings, toolkit, batch' },
    ]);
  });
});
