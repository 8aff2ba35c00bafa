import { guardStrings, isObject, mapArray, withField, withString } from '../guardrails/json-texts.js';
import type { GuardBlock, GuardSession } from '../guardrails/guard-session.js';

/** A `tools/call` answer as the gateway hands it back (MCP's CallToolResult: content blocks, structured content, isError). */
export interface GuardableToolResult {
  readonly content: readonly unknown[];
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  readonly isError?: boolean;
}

/**
 * A tool call's arguments through the output stage (issue 38, issue 39 point 1): the MCP client's model
 * wrote them, so they are guarded like the tool-call arguments of a model's answer before they reach a
 * tool (a merchant's server, the operator's, a built-in one). A masked value is masked for good here: the
 * gateway has no vault of the client's values to restore. The caller checks `session.blocked` afterwards.
 */
export function guardToolArguments(args: Readonly<Record<string, unknown>>, session: GuardSession): Readonly<Record<string, unknown>> {
  return guardStrings(args, (text) => session.output(text)) as Readonly<Record<string, unknown>>;
}

/**
 * A tool's result through the input stage as a `tool` source (it goes back into the client's model): card
 * numbers and the other detectors masked, the indirect-injection heuristics scored apart from user input.
 * Only text is read: `text` content blocks, an embedded resource's `text`, and every string of the
 * structured content; images, audio and blobs pass as they are.
 */
export function guardToolResult<T extends GuardableToolResult>(result: T, session: GuardSession): T {
  const guardText = (text: string) => session.input(text, 'tool');
  const content = mapArray(result.content, (block) => {
    if (!isObject(block)) return block;
    if (block['type'] === 'text') return withString(block, 'text', guardText);
    if (block['type'] === 'resource')
      return withField(block, 'resource', (resource) => (isObject(resource) ? withString(resource, 'text', guardText) : resource));
    return block;
  }) as readonly unknown[];
  const structured =
    result.structuredContent === undefined ? undefined : (guardStrings(result.structuredContent, guardText) as Readonly<Record<string, unknown>>);
  if (content === result.content && structured === result.structuredContent) return result;
  return { ...result, content, ...(structured !== undefined ? { structuredContent: structured } : {}) };
}

/** The answer to a tool call a guard refused: an MCP tool error naming the guard and what it refused, never the text it matched. */
export function blockedToolCallResult(block: GuardBlock): GuardableToolResult & { readonly isError: true } {
  const what = block.stage === 'input' ? "the tool's result" : "the tool call's arguments";
  return {
    content: [{ type: 'text', text: `The "${block.guard}" guardrail blocked ${what}: it holds content this merchant's guardrails refuse.` }],
    isError: true,
  };
}
