import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyServerOptions } from 'fastify';

/**
 * Request validation with two ajv instances: query strings, path parameters and headers are text,
 * so their values are coerced to the schema's types (`?page=2`, a repeated parameter into an
 * array); JSON bodies already carry their types and are validated as sent. With one coercing
 * instance for everything, a body's `null` passed as `false`, `false` as the string "false" and a
 * boolean where an object was asked for as `null` — a request its schema refuses was accepted
 * (schemathesis' negative_data_rejection).
 *
 * Otherwise the options are fastify's own (api/app.ts's `ajv.customOptions` over @fastify/ajv-compiler's
 * defaults), and both instances know the shared schemas (`app.addSchema`) for `$ref`s.
 */
type AjvCustomOptions = Options;

// ajv-formats is CommonJS: its default export is the plugin, under `default` once more for NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

/** @fastify/ajv-compiler's defaults (removeAdditional is overridden by api/app.ts). */
const fastifyDefaults: AjvCustomOptions = { coerceTypes: 'array', useDefaults: true, removeAdditional: true, addUsedSchema: false, allErrors: false };

type ValidatorFactory = (
  externalSchemas: Record<string, unknown>,
  options: { customOptions?: AjvCustomOptions },
) => (route: { schema: Record<string, unknown>; httpPart?: string }) => ValidateFunction;

const buildValidator: ValidatorFactory = (externalSchemas, options) => {
  const make = (coerceTypes: AjvCustomOptions['coerceTypes']): Ajv => {
    const ajv = new Ajv({ ...fastifyDefaults, ...options.customOptions, coerceTypes });
    addFormats(ajv);
    for (const schema of Object.values(externalSchemas)) ajv.addSchema(schema as object);
    return ajv;
  };
  const coercing = make(options.customOptions?.coerceTypes ?? 'array');
  const asSent = make(false);
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? asSent : coercing;
    // ajv refuses to compile a second schema with an `$id` it holds: reuse it, as fastify's compiler does.
    const id = schema['$id'];
    const stored = typeof id === 'string' ? ajv.getSchema(id) : undefined;
    return stored ?? ajv.compile(schema);
  };
};

/** Spread into the `Fastify({...})` options of api/app.ts. */
export const requestValidationOptions: Pick<FastifyServerOptions, 'schemaController'> = {
  schemaController: { compilersFactory: { buildValidator: buildValidator as never } },
};
