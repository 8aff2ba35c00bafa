import { createHash } from 'node:crypto';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
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
 *
 * Compiled once per process: fastify asks for a validator factory and a serializer factory in every
 * encapsulated plugin context (about 26 per app), and a new ajv instance compiles its meta-schema
 * and every shared schema again before the first route's. Here an ajv instance is made once for
 * each set of shared schemas and options (by content: fastify hands each context a copy), and a
 * route's validator and response serializer once for each schema (by content) within it. What is
 * compiled is a pure function of those, so an app built second in a process (a test building one
 * per test, a replica beside another) gets the same functions without compiling: about 1.2 s of CPU
 * for the first app, a fraction of it for the next.
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

type Serializer = (document: unknown) => string;
type SerializerFactory = (externalSchemas: Record<string, unknown>, options?: Record<string, unknown>) => (route: { schema?: unknown }) => Serializer;

/**
 * A digest of a shared schema's content, kept per object: fastify hands every context of one app
 * the same (cloned) schema objects and never changes them after `addSchema`, so each is serialised
 * once per app rather than once per context.
 */
const schemaDigests = new WeakMap<object, string>();

function digestOf(schema: unknown): string {
  if (typeof schema !== 'object' || schema === null) return JSON.stringify(schema);
  let digest = schemaDigests.get(schema);
  if (digest === undefined) {
    digest = createHash('sha1').update(JSON.stringify(schema)).digest('base64');
    schemaDigests.set(schema, digest);
  }
  return digest;
}

/** What a context's compiled functions depend on besides the route schema: its options and shared schemas. */
function contextKey(externalSchemas: Record<string, unknown>, options: unknown): string {
  let key = JSON.stringify(options ?? {});
  for (const [id, schema] of Object.entries(externalSchemas)) key += `|${id}=${digestOf(schema)}`;
  return key;
}

/** One per context key, for the life of the process: an ajv instance and what it compiled, by schema content. */
const validators = new Map<string, { ajv: Ajv; compiled: Map<string, ValidateFunction> }>();

function validatorsFor(externalSchemas: Record<string, unknown>, options: AjvCustomOptions, coerceTypes: AjvCustomOptions['coerceTypes']) {
  const key = `${String(coerceTypes)}|${contextKey(externalSchemas, options)}`;
  let entry = validators.get(key);
  if (entry === undefined) {
    const ajv = new Ajv({ ...fastifyDefaults, ...options, coerceTypes });
    addFormats(ajv);
    for (const schema of Object.values(externalSchemas)) ajv.addSchema(schema as object);
    entry = { ajv, compiled: new Map() };
    validators.set(key, entry);
  }
  return entry;
}

const buildValidator: ValidatorFactory = (externalSchemas, options) => {
  const customOptions = options.customOptions ?? {};
  const coercing = validatorsFor(externalSchemas, customOptions, customOptions.coerceTypes ?? 'array');
  const asSent = validatorsFor(externalSchemas, customOptions, false);
  return ({ schema, httpPart }) => {
    const { ajv, compiled } = httpPart === 'body' ? asSent : coercing;
    // ajv refuses to compile a second schema with an `$id` it holds: reuse it, as fastify's compiler does.
    const id = schema['$id'];
    const stored = typeof id === 'string' ? ajv.getSchema(id) : undefined;
    if (stored !== undefined) return stored;
    const key = JSON.stringify(schema);
    let validate = compiled.get(key);
    if (validate === undefined) {
      validate = ajv.compile(schema);
      compiled.set(key, validate);
    }
    return validate;
  };
};

/** fastify's own serializer factory (fast-json-stringify), its serializers kept per context key and schema content. */
const defaultSerializers = SerializerSelector() as unknown as SerializerFactory;
const serializers = new Map<string, Map<string, Serializer>>();

const buildSerializer: SerializerFactory = (externalSchemas, options) => {
  const key = contextKey(externalSchemas, options);
  let compiled = serializers.get(key);
  if (compiled === undefined) {
    compiled = new Map();
    serializers.set(key, compiled);
  }
  const known = compiled;
  return (route) => {
    const schemaKey = JSON.stringify(route.schema);
    let serialize = known.get(schemaKey);
    if (serialize === undefined) {
      // A factory of its own per schema: fastify's drops a schema's own `$id` from the shared set it
      // was given, for the rest of that factory's life, so what it compiles depends on the order.
      serialize = defaultSerializers(sharedSchemasReached(route.schema, externalSchemas), options)(route);
      known.set(schemaKey, serialize);
    }
    return serialize;
  };
};

/**
 * The shared schemas `schema` reaches through `$ref`s (theirs too), or all of them when a reference
 * names none by its `$id`. fast-json-stringify checks every shared schema it is given (depth, and
 * against the JSON Schema meta-schema) on every build: given all ~170, each response's serializer
 * checked them all again, about 0.5 s of CPU in every process that starts the API. A schema no
 * reference reaches adds nothing to the serializer's code.
 */
export function sharedSchemasReached(schema: unknown, externalSchemas: Record<string, unknown>): Record<string, unknown> {
  const reached: Record<string, unknown> = {};
  const pending: unknown[] = [schema];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node !== 'object' || node === null) continue;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const hash = value.indexOf('#');
        const id = hash === -1 ? value : value.slice(0, hash);
        // A reference within its own document; the document itself is reached already.
        if (id === '') continue;
        if (!Object.hasOwn(externalSchemas, id)) return externalSchemas;
        if (Object.hasOwn(reached, id)) continue;
        reached[id] = externalSchemas[id];
        pending.push(externalSchemas[id]);
      } else pending.push(value);
    }
  }
  return reached;
}

/** Spread into the `Fastify({...})` options of api/app.ts. */
export const requestValidationOptions: Pick<FastifyServerOptions, 'schemaController'> = {
  schemaController: { compilersFactory: { buildValidator: buildValidator as never, buildSerializer: buildSerializer as never } },
};
