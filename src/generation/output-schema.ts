import { Ajv2020 } from 'ajv/dist/2020.js';
import { z } from 'zod';
import { InvalidRequestError } from './errors/provider-errors.js';
import type { OutputSchema } from './generate-options.js';
import type { JsonSchema } from './tool-definition.js';

/** A structured-output schema ready for use: the JSON Schema sent to the model and a validator for its answer. */
export interface PreparedSchema {
  readonly json: JsonSchema;
  /** `undefined` when the value matches, else a short description of the first mismatch. */
  check(value: unknown): string | undefined;
}

const ajv = new Ajv2020({ strict: false, allErrors: false });

/**
 * Accepts a zod schema (converted with `z.toJSONSchema`, validated with zod itself) or a JSON
 * Schema object (compiled with Ajv so a malformed schema fails before any network call).
 */
export function prepareSchema(schema: OutputSchema, provider: string): PreparedSchema {
  if (schema instanceof z.ZodType) {
    const zodSchema = schema;
    let json: JsonSchema;
    try {
      json = z.toJSONSchema(zodSchema) as JsonSchema;
    } catch (error) {
      throw new InvalidRequestError(`schema cannot be expressed as JSON Schema: ${String(error)}`, provider, 'schema', { originalError: error });
    }
    return {
      json,
      check(value) {
        const parsed = zodSchema.safeParse(value);
        return parsed.success ? undefined : parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
      },
    };
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new InvalidRequestError('schema must be a JSON Schema object or a zod schema', provider, 'schema');
  }
  let validate: ReturnType<typeof ajv.compile>;
  try {
    validate = ajv.compile(schema as Record<string, unknown>);
  } catch (error) {
    throw new InvalidRequestError(`schema is not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`, provider, 'schema', {
      originalError: error,
    });
  }
  return {
    json: schema as JsonSchema,
    check(value) {
      if (validate(value)) return undefined;
      const first = validate.errors?.[0];
      return first ? `${first.instancePath || '(root)'} ${first.message ?? 'is invalid'}` : 'does not match the schema';
    },
  };
}
