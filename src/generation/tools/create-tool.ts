import { Ajv2020 } from 'ajv/dist/2020.js';
import { z } from 'zod';
import { InvalidRequestError } from '../errors/provider-errors.js';
import type { JsonSchema, ToolCallContext, ToolDefinition } from '../tool-definition.js';
import { wrapWithConfirmation } from './confirmation.js';

/** NeuroLink's `SimpleTool`; `parameters` may be a zod schema or a JSON Schema object. */
export interface SimpleTool {
  readonly description: string;
  readonly parameters?: z.ZodType | JsonSchema;
  readonly requiresConfirmation?: boolean;
  execute(args: never, context?: ToolCallContext): unknown;
  readonly metadata?: {
    readonly category?: string;
    readonly version?: string;
    readonly author?: string;
    readonly tags?: readonly string[];
    readonly documentation?: string;
  };
}

export const reservedToolNames: ReadonlySet<string> = new Set([
  'system',
  'internal',
  'core',
  'ai',
  'assistant',
  'help',
  'debug',
  'test',
  'mock',
  'default',
  'config',
  'admin',
  'root',
  'neurolink',
]);

const namePattern = /^[a-zA-Z0-9_-]+$/;
const ajv = new Ajv2020({ strict: false, allErrors: false });

function invalid(message: string, option: string): InvalidRequestError {
  return new InvalidRequestError(message, 'tools', option);
}

/**
 * Throws InvalidRequestError (option = the field at fault) when `tool` cannot be registered as
 * `name`: name 2–50 characters of letters, digits, `_` or `-`, not reserved (case-insensitive);
 * description of at least 10 characters; `execute` a function; `parameters` (never `schema`) a
 * zod schema or a JSON Schema object.
 */
export function validateTool(name: unknown, tool: unknown): asserts tool is SimpleTool {
  if (typeof name !== 'string' || name.length < 2 || name.length > 50)
    throw invalid(`tool name must be 2 to 50 characters, got ${JSON.stringify(name)}`, 'name');
  if (!namePattern.test(name)) throw invalid(`tool name "${name}" may contain only letters, digits, "_" and "-"`, 'name');
  if (reservedToolNames.has(name.toLowerCase())) throw invalid(`tool name "${name}" is reserved`, 'name');
  if (typeof tool !== 'object' || tool === null) throw invalid(`tool "${name}" must be an object`, 'tool');
  const candidate = tool as Record<string, unknown>;
  if ('schema' in candidate && !('parameters' in candidate)) throw invalid(`tool "${name}" uses "schema"; name its input schema "parameters"`, 'parameters');
  if (typeof candidate.description !== 'string' || candidate.description.trim().length < 10)
    throw invalid(`tool "${name}" needs a description of at least 10 characters`, 'description');
  if (typeof candidate.execute !== 'function') throw invalid(`tool "${name}" needs an execute function`, 'execute');
  const parameters = candidate.parameters;
  if (parameters !== undefined && !(parameters instanceof z.ZodType) && (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters))) {
    throw invalid(`tool "${name}" parameters must be a zod schema or a JSON Schema object`, 'parameters');
  }
  if (candidate.requiresConfirmation !== undefined && typeof candidate.requiresConfirmation !== 'boolean')
    throw invalid(`tool "${name}" requiresConfirmation must be a boolean`, 'requiresConfirmation');
}

type Checker = (value: unknown) => { ok: true; value: unknown } | { ok: false; error: string };

function prepare(name: string, parameters: SimpleTool['parameters']): { inputSchema: JsonSchema; check: Checker } {
  if (parameters === undefined) return { inputSchema: { type: 'object', properties: {} }, check: (value) => ({ ok: true, value: value ?? {} }) };
  if (parameters instanceof z.ZodType) {
    const schema = parameters;
    let inputSchema: JsonSchema;
    try {
      inputSchema = z.toJSONSchema(schema) as JsonSchema;
    } catch (error) {
      throw invalid(`tool "${name}" parameters cannot be expressed as JSON Schema: ${error instanceof Error ? error.message : String(error)}`, 'parameters');
    }
    return {
      inputSchema,
      check(value) {
        const parsed = schema.safeParse(value);
        if (parsed.success) return { ok: true, value: parsed.data };
        return { ok: false, error: parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ') };
      },
    };
  }
  // Draft-07 schemas name their meta-schema; Ajv2020 does not know it, and the keywords tools use are the same.
  const { $schema: _ignored, ...jsonSchema } = parameters as Record<string, unknown>;
  let validate: ReturnType<typeof ajv.compile>;
  try {
    validate = ajv.compile(jsonSchema);
  } catch (error) {
    throw invalid(`tool "${name}" parameters are not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`, 'parameters');
  }
  return {
    inputSchema: parameters as JsonSchema,
    check(value) {
      if (validate(value)) return { ok: true, value };
      const first = validate.errors?.[0];
      return { ok: false, error: first ? `${first.instancePath || '(root)'} ${first.message ?? 'is invalid'}` : 'does not match the schema' };
    },
  };
}

/**
 * A custom tool as a `ToolDefinition` (`source: 'custom'`). Arguments are validated against the
 * schema before `execute` runs; invalid arguments and a throwing `execute` both become
 * `{ success: false, error }`. A `requiresConfirmation` tool is gated by `wrapWithConfirmation`.
 */
export function createTool(name: string, tool: SimpleTool): ToolDefinition {
  validateTool(name, tool);
  const { inputSchema, check } = prepare(name, tool.parameters);
  const run = tool.execute.bind(tool) as (args: unknown, context?: ToolCallContext) => unknown;
  const definition: ToolDefinition = {
    name,
    description: tool.description,
    inputSchema,
    source: 'custom',
    ...(tool.requiresConfirmation === true ? { requiresConfirmation: true } : {}),
    async execute(input, context) {
      const checked = check(input);
      if (!checked.ok) return { success: false, error: `invalid arguments for ${name}: ${checked.error}` };
      try {
        return await run(checked.value, context);
      } catch (error) {
        return { success: false, error: error instanceof Error ? error.message : String(error) };
      }
    },
  };
  return wrapWithConfirmation(definition);
}
