import { describe, expect, it } from 'vitest';
import { guardNativeEvents } from '../../../../src/generation/gateway/guard-native-stream.js';
import { guardRequestBody } from '../../../../src/generation/gateway/guard-request-body.js';
import type { NativeWireEvent } from '../../../../src/generation/native-wire.js';
import { GuardPolicy } from '../../../../src/guardrails/guard-policy.js';
import { GuardSession } from '../../../../src/guardrails/guard-session.js';
import { defaultGuardSettings, type GuardSettings } from '../../../../src/guardrails/guard-settings.js';

function session(settings: GuardSettings = defaultGuardSettings): GuardSession {
  const compiled = GuardPolicy.compile(settings);
  if (!compiled.ok) throw new Error(compiled.reason);
  return new GuardSession(compiled.policy);
}

const pan = '4111 1111 1111 1111';

async function collect(events: AsyncIterable<NativeWireEvent>): Promise<NativeWireEvent[]> {
  const out: NativeWireEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

async function* from(events: readonly NativeWireEvent[]): AsyncGenerator<NativeWireEvent> {
  yield* events;
}

describe('guarding a request body in its wire', () => {
  it('returns the very same body when nothing is found', () => {
    const body = { model: 'm', messages: [{ role: 'user', content: 'hello' }], extra: { kept: true } };
    expect(guardRequestBody('openai-chat', body, session())).toBe(body);
  });

  it('changes only the texts of a Messages body, keeping thinking blocks, cache marks and unknown fields as sent', () => {
    const thinking = { type: 'thinking', thinking: `I saw ${pan}`, signature: 'sig-abc' };
    const body = {
      model: 'claude',
      max_tokens: 10,
      context_management: { edits: [] },
      system: [{ type: 'text', text: `cards: ${pan}`, cache_control: { type: 'ephemeral' } }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: `pay ${pan}` },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
          ],
        },
        { role: 'assistant', content: [thinking, { type: 'tool_use', id: 't1', name: 'pay', input: { card: pan, amount: 3 } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: `paid with ${pan}` }] },
      ],
    };
    const guarded = guardRequestBody('anthropic-messages', body, session()) as typeof body;
    expect(guarded.context_management).toBe(body.context_management);
    expect(guarded.system).toEqual([{ type: 'text', text: 'cards: [CARD_1]', cache_control: { type: 'ephemeral' } }]);
    expect(guarded.messages[0]!.content[1]).toBe(body.messages[0]!.content[1]);
    // A signed thinking block is the provider's and must go back verbatim.
    expect(guarded.messages[1]!.content[0]).toBe(thinking);
    expect(guarded.messages[1]!.content[1]).toEqual({ type: 'tool_use', id: 't1', name: 'pay', input: { card: '[CARD_1]', amount: 3 } });
    expect(guarded.messages[2]!.content[0]).toEqual({ type: 'tool_result', tool_use_id: 't1', content: 'paid with [CARD_1]' });
  });

  it('leaves a Responses reasoning item and its encrypted content untouched', () => {
    const reasoning = { type: 'reasoning', id: 'rs_1', encrypted_content: 'enc', summary: [] };
    const body = { model: 'gpt', instructions: `know ${pan}`, input: [reasoning, { type: 'function_call_output', call_id: 'c', output: pan }] };
    const guarded = guardRequestBody('openai-responses', body, session()) as typeof body;
    expect(guarded.instructions).toBe('know [CARD_1]');
    expect(guarded.input[0]).toBe(reasoning);
    expect(guarded.input[1]).toEqual({ type: 'function_call_output', call_id: 'c', output: '[CARD_1]' });
  });
});

describe('guarding a native Chat Completions stream', () => {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): NativeWireEvent => ({
    data: JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] }),
  });

  it('passes events without a value byte for byte and flushes held text into the finish chunk', async () => {
    const events = [
      chunk({ role: 'assistant', content: '' }),
      chunk({ content: 'Hello' }),
      chunk({ content: ' card 4242 4242 4242' }),
      chunk({ content: ' 4242' }),
      chunk({}, 'stop'),
      { data: '[DONE]' },
    ];
    const out = await collect(guardNativeEvents('openai-chat', from(events), session()));
    expect(out[0]).toBe(events[0]);
    expect(out[1]).toBe(events[1]);
    const texts = out.map((event) =>
      event.data === '[DONE]' ? '' : ((JSON.parse(event.data) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ?? ''),
    );
    expect(texts.join('')).toBe('Hello card [CARD_1]');
    expect(out.at(-1)).toEqual({ data: '[DONE]' });
  });

  it('ends the stream with GuardrailBlocked when an output guard blocks', async () => {
    const events = [chunk({ content: `card ${pan} ok` }), chunk({}, 'stop'), { data: '[DONE]' }];
    await expect(collect(guardNativeEvents('openai-chat', from(events), session({ card: { action: 'block' } })))).rejects.toMatchObject({
      code: 'SY_GUARDRAIL_BLOCKED',
      details: { guard: 'card', stage: 'output-stream' },
    });
  });
});
