import { readFiles } from './documents/document-input.js';
import { extractDocumentText } from './documents/extract-document-text.js';
import type { GenerateOptions } from './generate-options.js';
import type { MemoryInputPlan } from './memory/memory-input-plan.js';
import type { ToolDefinition } from './tool-definition.js';
import { offeredTools } from './tools/tool-permissions.js';

/** The input of one generate/stream call as it will be sent, in characters, before it is made. */
export interface InputEstimate {
  /**
   * The call's own input: system prompt, remembered history (or its summary), the caller's
   * `conversationHistory`, the prompt, the text extracted from its documents, its client tools,
   * the definitions of the tools it offers the model and its output schema.
   */
  readonly characters: number;
  /** The summarising call conversation memory makes first, when the session's history is over budget. */
  readonly summaryCall?: MemoryInputPlan['summaryCall'];
}

/** Conversation memory's view of a call (ConversationMemory.plannedInput). */
export interface MemoryPlanner {
  plannedInput(options: GenerateOptions): Promise<MemoryInputPlan>;
}

/** Characters of the documents' text exactly as `attachDocuments` puts it before the prompt (one at a time, memory bounded). */
async function documentCharacters(files: GenerateOptions['files']): Promise<number> {
  let total = 0;
  for (const document of readFiles(files)) total += (await extractDocumentText(document)).length + 2;
  return total;
}

function jsonLength(value: unknown): number {
  return value === undefined ? 0 : JSON.stringify(value).length;
}

/** Characters of the definitions the model is offered (name, description, input schema), as the call picks them. */
function toolDefinitionCharacters(options: GenerateOptions, toolkitTools: readonly ToolDefinition[]): number {
  // A malformed list is refused by the call itself; here it only must not count less than the call sends.
  const permissions = options.context?.['permissions'];
  const granted = Array.isArray(permissions) && permissions.every((entry) => typeof entry === 'string') ? (permissions as string[]) : undefined;
  return offeredTools(options.tools ?? [], toolkitTools, granted).reduce(
    (total, tool) => total + jsonLength({ name: tool.name, description: tool.description, parameters: tool.inputSchema }),
    0,
  );
}

/**
 * What a call will send, worked out before it is made, for its key's budget reservation: not
 * only the prompt, but memory's history and summary call, the documents' extracted text and the
 * definitions of the tools it offers (`toolkitTools`: the toolkit's tools for the call's merchant;
 * whether the model takes tools is not known yet, so they are counted whenever offered).
 * A file that cannot be read fails here with the `InvalidRequestError` the call would give.
 *
 * @remarks Later rounds of a tool loop are not counted: docs/security.md lists this under LLM06.
 */
export async function estimateCallInput(
  options: GenerateOptions,
  memory: MemoryPlanner | undefined,
  toolkitTools: readonly ToolDefinition[] = [],
): Promise<InputEstimate> {
  const text = options.input?.text ?? options.prompt ?? '';
  const plan = memory === undefined ? { historyCharacters: 0 } : await memory.plannedInput(options);
  const characters =
    text.length +
    (options.systemPrompt?.length ?? 0) +
    jsonLength(options.conversationHistory) +
    jsonLength(options.clientTools) +
    (options.disableTools === true ? 0 : toolDefinitionCharacters(options, toolkitTools)) +
    // A zod schema is sent converted; its object is not what goes out, so only JSON Schemas are measured.
    (options.schema !== undefined && !('_zod' in options.schema) ? jsonLength(options.schema) : 0) +
    plan.historyCharacters +
    (await documentCharacters(options.files));
  return { characters, ...(plan.summaryCall !== undefined ? { summaryCall: plan.summaryCall } : {}) };
}
