import type { GenerateOptions, StreamOptions } from '../generation/generate-options.js';
import type { GenerateResult, StreamChunk, StreamResult } from '../generation/generate-result.js';
import { guardStrings } from '../guardrails/json-texts.js';
import { GuardrailBlocked } from '../guardrails/guardrail-blocked.js';
import type { GuardBlock, GuardSession } from '../guardrails/guard-session.js';
import type { ToolDefinition } from '../generation/tool-definition.js';
import { type GuardCheckScope, type GuardChecks, runGuardChecks } from '../guardrails/run-guard-checks.js';

/**
 * The guards over a toolkit call (`generate`/`stream` of the library, `/api/generate`, `/api/stream`,
 * WebSocket chat and batch items all come through `NeuroLink`): the prompt, the system prompt and the
 * conversation history (user, assistant and tool turns, tool-call arguments) are guarded before the call,
 * a blocking guard refuses it (`GuardrailBlocked`, before any provider call), and the answer is guarded and
 * restored for the caller, a stream chunk by chunk.
 *
 * Tools the toolkit itself runs inside the call (built-in, custom, MCP, the call's own `tools`) are wrapped
 * by `guardToolkitTool` through the options' `toolGuard`: their results are input, their arguments output.
 * A caller that runs its tools (`clientTools`) sends their results back as `tool` turns, guarded above.
 */
export function guardToolkitOptions<T extends GenerateOptions | StreamOptions>(options: T | string, session: GuardSession, checks?: ToolkitGuardChecks): T {
  const plain = typeof options === 'string' ? ({ input: { text: options } } as T) : options;
  const guarded = guardOptions(plain, session);
  session.finishInput();
  const blocked = session.blocked;
  if (blocked !== undefined) throw new GuardrailBlocked(blocked);
  // A call without tools needs no wrapper (and no copy of its options for one).
  if (guarded.disableTools === true) return guarded;
  return { ...guarded, toolGuard: (tool: ToolDefinition) => guardToolkitTool(tool, session, checks) };
}

/**
 * The asynchronous guards (moderation, the injection judge) over a call's guarded input; a blocking finding
 * (or a failed check that is fail-closed) throws `GuardrailBlocked` before any model call. Callers invoke it
 * only when `session.policy.checksAsync`, so the defaults stay synchronous.
 */
export async function checkToolkitInput(session: GuardSession, checks: ToolkitGuardChecks | undefined): Promise<void> {
  await runGuardChecks(session, checks?.checks, checks?.scope ?? {});
  const blocked = session.blocked;
  if (blocked !== undefined) throw new GuardrailBlocked(blocked);
}

/** The asynchronous guards' provider calls of a toolkit call, and whose call it is. */
export interface ToolkitGuardChecks {
  readonly checks: GuardChecks;
  readonly scope: GuardCheckScope;
}

/**
 * A tool the toolkit runs inside a guarded call, under the call's session: the arguments the model wrote
 * go through the output stage (guarded, then the caller's own values restored, as a tool the caller runs
 * gets them on the gateway), and its result through the input stage as a `tool` source (masking, blocking,
 * the indirect-injection heuristics) before the model reads it. A blocking finding replaces the result (or
 * skips the run) with a failed result naming the guard, never the text; the session keeps the block, so the
 * call is refused with `GuardrailBlocked` once the model answers (a stream at its next chunk).
 */
export function guardToolkitTool(tool: ToolDefinition, session: GuardSession, checks?: ToolkitGuardChecks): ToolDefinition {
  return {
    ...tool,
    execute: async (input, context) => {
      const args = guardStrings(input, (text) => session.output(text));
      if (session.blocked !== undefined) return blockedToolResult(session.blocked);
      const result = await tool.execute(args, context);
      const checked = session.checkedInputs.length;
      const guarded = guardStrings(result, (text) => session.input(text, 'tool'));
      if (session.policy.checksAsync && session.blocked === undefined) await runGuardChecks(session, checks?.checks, checks?.scope ?? {}, checked);
      return session.blocked !== undefined ? blockedToolResult(session.blocked) : guarded;
    },
  };
}

function blockedToolResult(block: GuardBlock): { success: false; error: string } {
  return { success: false, error: `The "${block.guard}" guardrail blocked this tool call; its content was withheld.` };
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
