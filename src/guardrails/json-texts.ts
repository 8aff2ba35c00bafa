/**
 * Copy-on-write edits of JSON values, for guarding the texts inside a request or an answer: each helper
 * answers the very same value when nothing in it changed, so a body with no finding is passed on as it was
 * and a changed one differs only along the paths of the texts that changed.
 */
type Json = Readonly<Record<string, unknown>>;

/** Every string inside a JSON value (a tool_use input object), guarded. */
export function guardStrings(value: unknown, guard: (text: string) => string): unknown {
  if (typeof value === 'string') return guard(value);
  if (Array.isArray(value)) return mapArray(value, (entry) => guardStrings(entry, guard));
  if (!isObject(value)) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, entry] of Object.entries(value)) {
    const next = guardStrings(entry, guard);
    if (next !== entry) {
      copy ??= { ...value };
      copy[key] = next;
    }
  }
  return copy ?? value;
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object with `key` replaced by `change(value)`, or the same object when the key is absent or unchanged. */
export function withField(object: Json, key: string, change: (value: unknown) => unknown): Json {
  if (!(key in object)) return object;
  const value = object[key];
  const next = change(value);
  return next === value ? object : { ...object, [key]: next };
}

export function withString(object: Json, key: string, change: (text: string) => string): Json {
  return withField(object, key, (value) => (typeof value === 'string' ? change(value) : value));
}

/** The array with each element mapped, or the same array when none changed (a non-array comes back as is). */
export function mapArray(value: unknown, change: (entry: unknown) => unknown): unknown {
  if (!Array.isArray(value)) return value;
  let copy: unknown[] | undefined;
  value.forEach((entry: unknown, index) => {
    const next = change(entry);
    if (next !== entry) {
      copy ??= [...value];
      copy[index] = next;
    }
  });
  return copy ?? value;
}
