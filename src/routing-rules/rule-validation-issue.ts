/**
 * One problem found in a routing algorithm body. `message` is what the API shows (joined with "; "
 * after "Field validation failed: "); `code` and `path` are for analytics and tests, never for
 * branching on text.
 */
export interface RuleValidationIssue {
  readonly code: RuleValidationCode;
  /** Where in the `algorithm` object, e.g. `data.rules[0].statements[1].condition[0].value`. */
  readonly path: string;
  readonly message: string;
}

export type RuleValidationCode =
  /** The body does not have the algorithm's JSON shape (the reference's serde failure). */
  | 'invalid_shape'
  /** `algorithm.type` is one we refuse (ab_test). */
  | 'unsupported_algorithm'
  | 'unknown_key'
  | 'type_mismatch'
  | 'invalid_enum_value'
  /** The comparison operator is not allowed for the key's type or for the value's type. */
  | 'invalid_comparison'
  /** An integer is outside the key's min_value / max_value. */
  | 'value_out_of_range'
  /** A string breaks the key's exact_length / min_length / max_length. */
  | 'invalid_length'
  /** A string does not match the key's regex. */
  | 'pattern_mismatch'
  /** A `global_ref` names a global that `globals` does not define. */
  | 'unknown_global'
  /** An output with no connector: empty priority list, empty split list, empty gateway_name. */
  | 'empty_output'
  /** Volume split weights that do not add up to 100 (our rule; the reference accepts any u8 weights). */
  | 'split_sum_not_100'
  /** A rule's `routing_type` does not describe its `output`. */
  | 'routing_type_mismatch'
  /** An experiment arm names no algorithm of the merchant (or another experiment). */
  | 'unknown_algorithm'
  /** volume_contract documents (src/volume-commitment/read-volume-contract.ts), in the peer's words. */
  | 'invalid_amount'
  | 'out_of_range'
  | 'duplicate'
  | 'empty'
  | 'too_many'
  | 'invalid_target'
  | 'not_increasing'
  | 'not_enabled'
  | 'invalid_value'
  | 'unsupported_schema_version';

export function issue(code: RuleValidationCode, path: string, detail: string): RuleValidationIssue {
  return { code, path, message: `${path}: ${code}: ${detail}` };
}

/**
 * A user-supplied text quoted for a message, cut at 64 characters: messages go back in 400 bodies
 * and to analytics, and a megabyte key name should not be echoed whole.
 */
export function quote(text: string): string {
  return `'${text.length > 64 ? `${text.slice(0, 64)}…` : text}'`;
}
