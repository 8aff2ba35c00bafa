import { readValueType } from './read-routing-algorithm.js';
import type { EvaluationParameters, ValueType } from '../ports/state/routing-algorithm.js';
import { routingKeyTable, type RoutingKeyTable } from './routing-keys.js';

export type ParameterRejectionKind =
  /** `parameters` is not an object, or a value is not a `{"type","value"}` ValueType. */
  | 'shape'
  /** A key the rule builder does not know, whose value is not a metadata_variant. */
  | 'invalid_parameter'
  /** An enum key whose value is not an enum_variant. */
  | 'expected_enum'
  /** An enum key whose value is not one of the key's values. */
  | 'invalid_enum_value';

export type ParameterValidationResult =
  | { readonly ok: true; readonly parameters: EvaluationParameters }
  | {
      readonly ok: false;
      readonly kind: ParameterRejectionKind;
      /** The reference's text: `Invalid parameter: <key>`, `Expected enum value for key '<k>'`, `Invalid enum value '<v>' for key '<k>'`. */
      readonly message: string;
      /**
       * The whole 400 message as decision-engine sends it: the two enum messages go through its
       * InvalidRequest error and so carry the `Invalid request received : ` prefix; `Invalid parameter`
       * does not.
       */
      readonly wireMessage: string;
    };

const INVALID_REQUEST = 'Invalid request received : ';

/**
 * The `/routing/evaluate` parameter checks, in the reference's order, stopping at the first problem
 * (one message per 400, as the reference answers). Parameters under unknown keys are allowed only
 * when they are metadata_variant values (metadata conditions may look them up by their own key).
 * Non-enum keys are not type-checked here: a number sent for a str key is the evaluator's
 * InvalidComparison, as on the reference. Returns a null-prototype copy so parameter names can never
 * reach Object.prototype.
 */
export function validateEvaluationParameters(input: unknown, keys: RoutingKeyTable = routingKeyTable): ParameterValidationResult {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    const message = 'parameters must be an object of key → {"type","value"}';
    return { ok: false, kind: 'shape', message, wireMessage: message };
  }
  const parameters = Object.create(null) as Record<string, ValueType | null>;
  for (const [key, raw] of Object.entries(input as Record<string, unknown>)) {
    let value: ValueType | null = null;
    if (raw !== null && raw !== undefined) {
      const read = readValueType(raw, key);
      if (!read.ok) {
        const message = `Invalid value for parameter '${key}': ${read.issues.map((entry) => entry.message).join('; ')}`;
        return { ok: false, kind: 'shape', message, wireMessage: message };
      }
      value = read.value;
    }
    const definition = keys.definition(key);
    if (definition === undefined) {
      if (value?.type !== 'metadata_variant') {
        const message = `Invalid parameter: ${key}`;
        return { ok: false, kind: 'invalid_parameter', message, wireMessage: message };
      }
    } else if (definition.type === 'enum' && value !== null) {
      if (value.type !== 'enum_variant') {
        const message = `Expected enum value for key '${key}'`;
        return { ok: false, kind: 'expected_enum', message, wireMessage: INVALID_REQUEST + message };
      }
      if (!keys.allowsEnumValue(key, value.value)) {
        const message = `Invalid enum value '${value.value}' for key '${key}'`;
        return { ok: false, kind: 'invalid_enum_value', message, wireMessage: INVALID_REQUEST + message };
      }
    }
    parameters[key] = value;
  }
  return { ok: true, parameters };
}
