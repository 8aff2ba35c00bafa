import { describe, expect, it } from 'vitest';
import { cacheAffinityOf, cacheAffinityOfKey } from '../../../../src/generation/gateway/cache-affinity-key.js';

const system = 'You are a coding agent. '.repeat(300);
const marked = { type: 'ephemeral' } as const;

/** A Messages body of an agent session after `turns` user turns, the last user turn marked for caching (as Claude Code does). */
function session(turns: number, options: { readonly firstAsString?: boolean; readonly ttl?: '1h' } = {}) {
  const messages: { role: string; content: unknown }[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    const text = `step ${turn}: run the tests`;
    const last = turn === turns;
    const content =
      last || options.firstAsString !== true || turn !== 1
        ? [{ type: 'text', text, ...(last ? { cache_control: options.ttl === undefined ? marked : { ...marked, ttl: options.ttl } } : {}) }]
        : text;
    messages.push({ role: 'user', content });
    if (!last) messages.push({ role: 'assistant', content: [{ type: 'text', text: `done ${turn}` }] });
  }
  return { model: 'agents', max_tokens: 1024, system: [{ type: 'text', text: system, cache_control: marked }], messages };
}

describe('cacheAffinityOf', () => {
  it('keys every turn of a Messages session alike, though its breakpoint moves and its first turn changes form', () => {
    const first = cacheAffinityOf('messages', session(1, { firstAsString: true }));
    const keys = [2, 5, 20].map((turns) => cacheAffinityOf('messages', session(turns, { firstAsString: turns % 2 === 0 }))?.key);
    expect(first?.source).toBe('prefix');
    expect(keys).toEqual([first?.key, first?.key, first?.key]);
  });

  it('keys two conversations with different first turns apart', () => {
    const other = session(3);
    other.messages[0] = { role: 'user', content: 'a different task' };
    expect(cacheAffinityOf('messages', other)?.key).not.toBe(cacheAffinityOf('messages', session(3))?.key);
  });

  it('cuts the root at the last breakpoint when it comes before the first turn ends', () => {
    const onlySystem = (text: string) => ({
      system: [{ type: 'text', text: system, cache_control: marked }],
      messages: [{ role: 'user', content: text }],
    });
    // Only the system prompt is marked: conversations sharing it share its cache, whatever they ask.
    expect(cacheAffinityOf('messages', onlySystem('one'))?.key).toBe(cacheAffinityOf('messages', onlySystem('two'))?.key);
  });

  it('uses metadata.user_id on Messages and prompt_cache_key on chat and Responses, never their text', () => {
    const byUser = cacheAffinityOf('messages', { ...session(2), metadata: { user_id: 'user_abc_session_1' } });
    expect(byUser).toMatchObject({ source: 'user_id' });
    expect(byUser?.key).toMatch(/^[0-9a-f]{64}$/);
    expect(byUser?.key).not.toBe(cacheAffinityOf('messages', { ...session(2), metadata: { user_id: 'user_abc_session_2' } })?.key);
    const chat = cacheAffinityOf('chat', { messages: [{ role: 'user', content: system }], prompt_cache_key: 'tenant-7' });
    const responses = cacheAffinityOf('responses', { input: 'hi', instructions: system, prompt_cache_key: 'tenant-7' });
    expect(chat).toMatchObject({ source: 'prompt_cache_key' });
    expect(responses).toMatchObject({ source: 'prompt_cache_key' });
    expect(chat?.key).toBe(responses?.key);
    // The native pass-through's wire names key alike.
    expect(cacheAffinityOf('anthropic-messages', session(3))).toEqual(cacheAffinityOf('messages', session(3)));
    expect(cacheAffinityOf('openai-chat', { messages: [{ role: 'user', content: system }] })).toEqual(
      cacheAffinityOf('chat', { messages: [{ role: 'user', content: system }] }),
    );
  });

  it('keeps a conversation for 5 minutes, an hour when it asked for a 1h cache, a day for 24h retention', () => {
    expect(cacheAffinityOf('messages', session(2))?.ttlS).toBe(300);
    expect(cacheAffinityOf('messages', session(2, { ttl: '1h' }))?.ttlS).toBe(3600);
    expect(cacheAffinityOf('responses', { input: system, prompt_cache_retention: '24h' })?.ttlS).toBe(86_400);
  });

  it('counts what a request leaves cached: up to its last breakpoint, or all of it where caching is automatic', () => {
    const body = session(3);
    const affinity = cacheAffinityOf('messages', { ...body, messages: [...body.messages, { role: 'assistant', content: 'x'.repeat(4000) }] });
    expect(affinity?.promptTokens).toBeGreaterThan((affinity?.cacheableTokens ?? 0) + 900);
    expect(affinity?.cacheableTokens).toBeGreaterThan(system.length / 4);
    const automatic = cacheAffinityOf('chat', {
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: 'hi' },
      ],
    });
    expect(automatic?.cacheableTokens).toBe(automatic?.promptTokens);
  });

  it('keys a chat conversation by its instructions and first user turn, whatever follows', () => {
    const turn = (n: number) => ({
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: 'fix the bug' },
        ...Array.from({ length: n }, (_, i) => [
          { role: 'assistant', content: `looking ${i}` },
          { role: 'user', content: [{ type: 'text', text: `more ${i}` }] },
        ]).flat(),
      ],
    });
    expect(cacheAffinityOf('chat', turn(0))?.key).toBe(cacheAffinityOf('chat', turn(4))?.key);
    expect(
      cacheAffinityOf('chat', {
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: 'other' },
        ],
      })?.key,
    ).not.toBe(cacheAffinityOf('chat', turn(0))?.key);
  });

  it('keys a Responses conversation alike whether its first turn is a string or the stored message item', () => {
    const first = cacheAffinityOf('responses', { instructions: system, input: 'hello' });
    const later = cacheAffinityOf('responses', {
      instructions: system,
      input: [
        { id: 'msg_1', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello' }] },
        { id: 'msg_2', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hi' }] },
        { role: 'user', content: 'and then?' },
      ],
    });
    expect(later?.key).toBe(first?.key);
  });

  it('answers undefined for a body with no prompt, or less of it cacheable than any provider caches', () => {
    expect(cacheAffinityOf('messages', { model: 'x' })).toBeUndefined();
    expect(cacheAffinityOf('chat', 'not an object')).toBeUndefined();
    expect(cacheAffinityOf('chat', { messages: [{ role: 'user', content: 'hello' }], prompt_cache_key: 'tenant-7' })).toBeUndefined();
    // Only a short system prompt is marked: what follows is long, but nothing of it is cached.
    const shortMarked = { system: [{ type: 'text', text: 'be brief', cache_control: marked }], messages: [{ role: 'user', content: system }] };
    expect(cacheAffinityOf('messages', shortMarked)).toBeUndefined();
  });

  it('hashes a bare client key', () => {
    expect(cacheAffinityOfKey('k', 2000)).toMatchObject({ source: 'prompt_cache_key', ttlS: 300, cacheableTokens: 2000, promptTokens: 2000 });
    expect(cacheAffinityOfKey('k', 2000)?.key).not.toBe(cacheAffinityOfKey('j', 2000)?.key);
    expect(cacheAffinityOfKey('k', 1000)).toBeUndefined();
  });
});
