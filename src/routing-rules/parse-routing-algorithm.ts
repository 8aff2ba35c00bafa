import { readVolumeContract } from '../volume-commitment/read-volume-contract.js';
import { readRoutingAlgorithm } from './read-routing-algorithm.js';
import type { RoutingAlgorithm } from '../ports/state/routing-algorithm.js';
import { routingKeyTable, type RoutingKeyTable } from './routing-keys.js';
import type { RuleValidationIssue } from './rule-validation-issue.js';
import { validateRoutingAlgorithm } from './validate-routing-algorithm.js';

/**
 * Why an algorithm was refused:
 * - `shape`: the body is not a routing algorithm at all (the reference answers
 *   `Invalid routing rule configuration`); `errors` still says where, for logs.
 * - `semantic`: it parsed but means something invalid (unknown key, wrong value type, enum value
 *   not allowed, bad split sum, ab_test, …); the API answers
 *   `Field validation failed: <errors joined with "; ">`.
 */
export type RoutingAlgorithmRejection = {
  readonly ok: false;
  readonly kind: 'shape' | 'semantic';
  /** One message per problem, each starting with its path, e.g. `data.rules[0].statements[0].condition[0].lhs: unknown_key: unknown key 'foo'`. */
  readonly errors: readonly string[];
  readonly issues: readonly RuleValidationIssue[];
};

export type RoutingAlgorithmParseResult = { readonly ok: true; readonly algorithm: RoutingAlgorithm } | RoutingAlgorithmRejection;

/**
 * Checks the `algorithm` object of `/routing/create` and `/routing/update` (`{"type","data"}`) and
 * returns it normalised (aliases folded, `gateway_id` and `metadata` filled), or every problem found.
 * Expected failures are values: this never throws for any JSON input. `keys` defaults to the
 * rule-builder table that `GET /config/routing-keys` shows.
 */
export function parseRoutingAlgorithm(input: unknown, keys: RoutingKeyTable = routingKeyTable): RoutingAlgorithmParseResult {
  if (isVolumeContract(input)) {
    const contract = readVolumeContract(input.data);
    return contract.ok ? { ok: true, algorithm: { type: 'volume_contract', data: contract.config } } : reject(contract.kind, contract.issues);
  }
  const read = readRoutingAlgorithm(input);
  if (!read.ok) return reject(read.unsupported ? 'semantic' : 'shape', read.issues);
  const issues = validateRoutingAlgorithm(read.algorithm, keys);
  if (issues.length > 0) return reject('semantic', issues);
  return { ok: true, algorithm: read.algorithm };
}

/** `{"type":"volume_contract", …}`: read by its own reader (src/volume-commitment/read-volume-contract.ts). */
function isVolumeContract(input: unknown): input is { readonly type: 'volume_contract'; readonly data?: unknown } {
  return typeof input === 'object' && input !== null && (input as { type?: unknown }).type === 'volume_contract';
}

function reject(kind: 'shape' | 'semantic', issues: readonly RuleValidationIssue[]): RoutingAlgorithmRejection {
  return { ok: false, kind, errors: issues.map((entry) => entry.message), issues };
}
