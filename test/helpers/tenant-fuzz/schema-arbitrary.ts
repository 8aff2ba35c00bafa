import fc from 'fast-check';

/**
 * A fast-check arbitrary for values of a JSON Schema as the OpenAPI document states it (draft
 * 2020-12 subset: type, enum, const, properties/required/additionalProperties, items and tuples,
 * lengths, bounds, pattern, a few formats, anyOf/oneOf/allOf, local `$ref`s). Values aim to pass
 * the route's own validation, so requests reach the handler; `if/then/else` gives either branch,
 * `not` is ignored (such a value is then refused with a 400, which the tenant fuzz counts as a refusal).
 *
 * `hint(name)` lets the caller put its own values at properties of a given name (the other
 * tenant's ids): it returns an arbitrary for that property, or undefined for the schema's own.
 */
export type Schema = Record<string, unknown>;

export interface SchemaArbitraryOptions {
  /** The document's `components.schemas`, for `#/components/schemas/Name` references. */
  readonly components: Readonly<Record<string, Schema>>;
  /** An arbitrary for a property of this name, in place of its schema's (undefined: the schema's). */
  readonly hint?: (name: string, schema: Schema) => fc.Arbitrary<unknown> | undefined;
  /** Properties always generated when the schema has them, required or not (the merchant slots, the references). */
  readonly alwaysPresent?: (name: string) => boolean;
  /** Keys offered inside free-form objects (`{type: object}` with no properties), e.g. `sessionId`. */
  readonly freeFormKeys?: readonly string[];
  /** Objects and arrays nested deeper than this get their smallest value. */
  readonly maxDepth?: number;
}

const formats: Readonly<Record<string, () => fc.Arbitrary<string>>> = {
  email: () => fc.emailAddress(),
  uri: () => fc.webUrl(),
  url: () => fc.webUrl(),
  'date-time': () => fc.date({ min: new Date(0), max: new Date(4_102_444_800_000), noInvalidDate: true }).map((date) => date.toISOString()),
  date: () => fc.date({ min: new Date(0), max: new Date(4_102_444_800_000), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)),
  uuid: () => fc.uuid(),
};

export function schemaArbitrary(schema: Schema, options: SchemaArbitraryOptions): fc.Arbitrary<unknown> {
  return arbitraryOf(schema, options, 0);
}

function resolve(schema: Schema, options: SchemaArbitraryOptions): Schema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 20; hops += 1) {
    const name = current.$ref.replace(/^#\/components\/schemas\//, '');
    const target = options.components[name];
    if (target === undefined) throw new Error(`schema reference ${current.$ref} is not in components.schemas`);
    const { $ref: _ref, ...rest } = current;
    current = { ...target, ...rest };
  }
  return current;
}

function arbitraryOf(raw: Schema, options: SchemaArbitraryOptions, depth: number): fc.Arbitrary<unknown> {
  const schema = resolve(raw, options);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(alternatives) && alternatives.length > 0) {
    const { anyOf: _a, oneOf: _o, ...base } = schema;
    return fc.oneof(...alternatives.map((alternative) => arbitraryOf({ ...base, ...alternative }, options, depth)));
  }
  if (Array.isArray(schema.allOf)) {
    const { allOf, ...base } = schema;
    return arbitraryOf(mergeAll([base, ...(allOf as Schema[]).map((part) => resolve(part, options))]), options, depth);
  }
  if (schema.then !== undefined || schema.else !== undefined) {
    // Either branch (a value of `then` is taken to meet `if`, as the document's legacy-or-current bodies do).
    const { if: _if, then: thenBranch, else: elseBranch, ...base } = schema;
    const branches = [thenBranch, elseBranch].filter((branch): branch is Schema => branch !== undefined);
    return fc.oneof(...branches.map((branch) => arbitraryOf({ ...base, ...branch }, options, depth)));
  }
  const type = typeOf(schema);
  switch (type) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return fc.integer({ ...integerBounds(schema) });
    case 'number':
      return numberArbitrary(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return arrayArbitrary(schema, options, depth);
    case 'object':
      return objectArbitrary(schema, options, depth);
    default:
      return fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean());
  }
}

function typeOf(schema: Schema): string | undefined {
  const type = schema.type;
  if (Array.isArray(type)) {
    const nonNull = (type as string[]).filter((name) => name !== 'null');
    return nonNull[0] ?? 'null';
  }
  if (typeof type === 'string') return type;
  if (schema.properties !== undefined) return 'object';
  if (schema.items !== undefined) return 'array';
  return undefined;
}

function mergeAll(parts: readonly Schema[]): Schema {
  const merged: Schema = {};
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      if (key === 'properties') merged.properties = { ...(merged.properties as Schema | undefined), ...(value as Schema) };
      else if (key === 'required') merged.required = [...((merged.required as string[] | undefined) ?? []), ...(value as string[])];
      else merged[key] = value;
    }
  }
  return merged;
}

function stringArbitrary(schema: Schema): fc.Arbitrary<string> {
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = Math.max(minLength, Math.min(typeof schema.maxLength === 'number' ? schema.maxLength : 24, minLength + 24));
  if (typeof schema.format === 'string' && formats[schema.format] !== undefined) return formats[schema.format]!();
  if (typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern);
    return fc.stringMatching(pattern).filter((text) => text.length >= minLength && text.length <= ((schema.maxLength as number | undefined) ?? Infinity));
  }
  return fc.string({ minLength, maxLength, unit: 'grapheme-ascii' });
}

function integerBounds(schema: Schema): { min: number; max: number } {
  let min = typeof schema.minimum === 'number' ? Math.ceil(schema.minimum) : -1_000;
  let max = typeof schema.maximum === 'number' ? Math.floor(schema.maximum) : 1_000_000;
  if (typeof schema.exclusiveMinimum === 'number') min = Math.max(min, Math.floor(schema.exclusiveMinimum) + 1);
  if (typeof schema.exclusiveMaximum === 'number') max = Math.min(max, Math.ceil(schema.exclusiveMaximum) - 1);
  if (schema.minimum === undefined && schema.exclusiveMinimum === undefined) min = Math.min(0, max);
  return { min, max: Math.max(min, max) };
}

function numberArbitrary(schema: Schema): fc.Arbitrary<number> {
  const { min, max } = integerBounds(schema);
  const exclusive = typeof schema.exclusiveMinimum === 'number';
  return fc.double({ min: exclusive ? (schema.exclusiveMinimum as number) : min, max, minExcluded: exclusive, noNaN: true, noDefaultInfinity: true });
}

function arrayArbitrary(schema: Schema, options: SchemaArbitraryOptions, depth: number): fc.Arbitrary<unknown[]> {
  const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const maxLength =
    depth >= (options.maxDepth ?? 5) ? minLength : Math.max(minLength, Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : 3, minLength + 3));
  if (Array.isArray(schema.prefixItems) || Array.isArray(schema.items)) {
    const tuple = (schema.prefixItems ?? schema.items) as Schema[];
    return fc.tuple(...tuple.map((item) => arbitraryOf(item, options, depth + 1)));
  }
  const item = arbitraryOf((schema.items as Schema | undefined) ?? {}, options, depth + 1);
  return schema.uniqueItems === true
    ? fc.uniqueArray(item, { minLength, maxLength, selector: (value) => JSON.stringify(value) })
    : fc.array(item, { minLength, maxLength });
}

function objectArbitrary(schema: Schema, options: SchemaArbitraryOptions, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const names = Object.keys(properties);
  if (names.length === 0) {
    // A free-form object: empty, or carrying the keys the caller offers (its references).
    const free = options.freeFormKeys ?? [];
    if (free.length === 0 || schema.additionalProperties === false) return fc.constant({});
    const entries = free.map((key) => [key, options.hint?.(key, { type: 'string' }) ?? fc.string({ maxLength: 8 })] as const);
    return fc.record(Object.fromEntries(entries), { requiredKeys: [] });
  }
  const tooDeep = depth >= (options.maxDepth ?? 5);
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const name of names) {
    if (tooDeep && !required.has(name)) continue;
    const property = resolve(properties[name]!, options);
    record[name] = options.hint?.(name, property) ?? arbitraryOf(property, options, depth + 1);
  }
  const requiredKeys = Object.keys(record).filter((name) => required.has(name) || options.alwaysPresent?.(name) === true);
  return fc.record(record, { requiredKeys });
}
