import type { GenerateOptions, StreamOptions } from '../generation/generate-options.js';
import type { GenerateResult, StreamChunk, StreamResult } from '../generation/generate-result.js';
import { guardStrings } from '../guardrails/json-texts.js';
import { GuardrailBlocked } from '../guardrails/guardrail-blocked.js';
import type { GuardSession } from '../guardrails/guard-session.js';

/**
 * The guards over a toolkit call (`generate`/`stream` of the library, `/api/generate`, `/api/stream`,
 * WebSocket chat and batch items all come through `NeuroLink`): the prompt, the system prompt and the
 * conversation history (user, assistant and tool turns, tool-call arguments) are guarded before the call,
 * a blocking guard refuses it (`GuardrailBlocked`, before any provider call), and the answer is guarded and
 * restored for the caller, a stream chunk by chunk.
 *
 * @remarks Tools the toolkit itself runs inside one call (built-in, custom, MCP) hand their results to the
 * model inside the provider layer's loop, past this guard; a caller that runs its tools (`clientTools`)
 * sends their results back as `tool` turns, which are guarded.
 */
export function guardToolkitOptions<T extends GenerateOptions | StreamOptions>(options: T | string, session: GuardSession): T | string {
  const guarded = typeof options === 'string' ? session.input(options, 'user') : guardOptions(options, session);
  session.finishInput();
  const blocked = session.blocked;
  if (blocked !== undefined) throw new GuardrailBlocked(blocked);
  return guarded;
}

function guardOptions<T extends GenerateOptions | StreamOptions>(options: T, session: GuardSession): T {
  let next: T = options;
  if (options.input !== undefined) next = { ...next, input: { ...options.input, text: session.input(options.input.text, 'user') } };
  if (typeof options.prompt === 'string') next = { ...next, prompt: session.input(options.prompt, 'user') };
  if (typeof options.systemPrompt === 'string') next = { ...next, systemPrompt: session.input(options.systemPrompt, 'system') };
  if (options.conversationHistory !== undefined) {
    next = {
      ...next,
      conversationHistory: options.conversationHistory.map((turn) => {
        if (turn.role === 'tool') return { ...turn, content: session.input(turn.content, 'tool') };
        if (turn.role !== 'assistant') return { ...turn, content: session.input(turn.content, turn.role) };
        const toolCalls = turn.toolCalls?.map((call) => ({
          ...call,
          args: guardStrings(call.args, (text) => session.input(text, 'assistant')) as Record<string, unknown>,
        }));
        return { ...turn, content: session.input(turn.content, 'assistant'), ...(toolCalls !== undefined ? { toolCalls } : {}) };
      }),
    };
  }
  return next;
}

/** A whole answer: its text guarded and restored (a block on the answer throws `GuardrailBlocked`). */
export function guardToolkitResult(result: GenerateResult, session: GuardSession): GenerateResult {
  const content = session.output(result.content);
  const blocked = session.blocked;
  if (blocked !== undefined) throw new GuardrailBlocked(blocked);
  return content === result.content ? result : { ...result, content, outputs: { ...result.outputs, text: content } };
}

/** A stream: each chunk through the session's stream masker; the final result carries the text as released. */
export function guardToolkitStream(result: StreamResult, session: GuardSession): StreamResult {
  const masker = session.stream();
  let released = '';
  let ended = false;
  const stream = (async function* (): AsyncGenerator<StreamChunk> {
    for await (const chunk of result.stream) {
      const text = masker.push(chunk.content);
      const blocked = session.blocked;
      if (blocked !== undefined) throw new GuardrailBlocked(blocked);
      released += text;
      if (text !== '') yield { ...chunk, content: text };
    }
    const rest = masker.end();
    released += rest;
    ended = true;
    if (rest !== '') yield { content: rest };
  })();
  // A caller that reads `final` without the stream still gets a guarded text.
  const final = result.final.then((whole) => {
    const content = ended ? released : session.output(whole.content);
    return { ...whole, content, outputs: { ...whole.outputs, text: content } };
  });
  final.catch(() => undefined);
  return { ...result, stream, final };
}
