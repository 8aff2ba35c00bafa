import {
  experimentEndpoints,
  type AbTestData,
  type ExperimentArmLayers,
  type ExperimentEndpoint,
  type SrConfigOverride,
} from '../ports/state/routing-algorithm.js';
import { issue, quote, type RuleValidationIssue } from './rule-validation-issue.js';

/**
 * The SHAPE half of an `ab_test` algorithm's `data` (peer `ABTestData`): required fields present
 * with their JSON types, the optional per-arm SR overrides objects of optional typed fields.
 * Ranges (split 1–49, thresholds) are meaning, checked by validate-ab-test-data.ts. Unknown extra
 * fields are ignored, as serde does. An arm is layered (`control` / `variant`: `rule_algorithm_id`
 * and/or `sr`) or single-strategy (`*_algorithm_id`); the id is required only without the layered arm.
 */
export function readAbTestData(value: unknown, issues: RuleValidationIssue[]): AbTestData | undefined {
  const data = objectOf(value);
  if (data === undefined) {
    issues.push(issue('invalid_shape', 'data', `expected an object, got ${describe(value)}`));
    return undefined;
  }
  const before = issues.length;
  const controlLayers = layers(data['control'], 'data.control', issues);
  const variantLayers = layers(data['variant'], 'data.variant', issues);
  const control = controlLayers === undefined || data['control_algorithm_id'] !== undefined ? text(data, 'control_algorithm_id', issues) : undefined;
  const variant = variantLayers === undefined || data['variant_algorithm_id'] !== undefined ? text(data, 'variant_algorithm_id', issues) : undefined;
  const endpoints = endpointsOf(data['endpoints'], issues);
  const split = number(data, 'variant_split_pct', issues, true);
  const minSample = number(data, 'min_sample_size', issues, true);
  const guardrail = number(data, 'guardrail_threshold_pp', issues, false);
  const controlSr = override(data['control_sr_config'], 'data.control_sr_config', issues);
  const variantSr = override(data['variant_sr_config'], 'data.variant_sr_config', issues);
  if (issues.length > before) return undefined;
  return {
    ...(control !== undefined ? { control_algorithm_id: control } : {}),
    ...(variant !== undefined ? { variant_algorithm_id: variant } : {}),
    ...(controlLayers !== undefined ? { control: controlLayers } : {}),
    ...(variantLayers !== undefined ? { variant: variantLayers } : {}),
    ...(endpoints !== undefined ? { endpoints } : {}),
    variant_split_pct: split as number,
    min_sample_size: minSample as number,
    guardrail_threshold_pp: guardrail as number,
    ...(controlSr !== undefined ? { control_sr_config: controlSr } : {}),
    ...(variantSr !== undefined ? { variant_sr_config: variantSr } : {}),
  };
}

/** A layered arm; null or absent is "not layered". */
function layers(value: unknown, path: string, issues: RuleValidationIssue[]): ExperimentArmLayers | undefined {
  if (value === undefined || value === null) return undefined;
  const object = objectOf(value);
  if (object === undefined) {
    issues.push(issue('invalid_shape', path, `expected an object or null, got ${describe(value)}`));
    return undefined;
  }
  const rule = object['rule_algorithm_id'];
  if (rule !== undefined && rule !== null && typeof rule !== 'string') {
    issues.push(issue('invalid_shape', `${path}.rule_algorithm_id`, `expected a string or null, got ${describe(rule)}`));
  }
  const sr = override(object['sr'], `${path}.sr`, issues);
  return {
    ...(typeof rule === 'string' && rule.trim().length > 0 ? { rule_algorithm_id: rule } : {}),
    ...(sr !== undefined ? { sr } : {}),
  };
}

function endpointsOf(value: unknown, issues: RuleValidationIssue[]): readonly ExperimentEndpoint[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    issues.push(issue('invalid_shape', 'data.endpoints', `expected an array or null, got ${describe(value)}`));
    return undefined;
  }
  const out: ExperimentEndpoint[] = [];
  value.forEach((entry: unknown, index) => {
    if (typeof entry === 'string' && (experimentEndpoints as readonly string[]).includes(entry)) {
      if (!out.includes(entry as ExperimentEndpoint)) out.push(entry as ExperimentEndpoint);
    } else {
      issues.push(issue('invalid_shape', `data.endpoints[${index}]`, `expected one of ${experimentEndpoints.join(', ')}, got ${describe(entry)}`));
    }
  });
  return out;
}

function objectOf(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Readonly<Record<string, unknown>>) : undefined;
}

function text(data: Readonly<Record<string, unknown>>, field: string, issues: RuleValidationIssue[]): string | undefined {
  const value = data[field];
  if (typeof value === 'string') return value;
  issues.push(issue('invalid_shape', `data.${field}`, `expected a string, got ${describe(value)}`));
  return undefined;
}

function number(data: Readonly<Record<string, unknown>>, field: string, issues: RuleValidationIssue[], integer: boolean): number | undefined {
  const value = data[field];
  if (typeof value === 'number' && Number.isFinite(value) && (!integer || Number.isInteger(value))) return value;
  issues.push(issue('invalid_shape', `data.${field}`, `expected ${integer ? 'an integer' : 'a number'}, got ${describe(value)}`));
  return undefined;
}

const numericOverrides = ['hedging_percent', 'elimination_threshold', 'margin'] as const;
const booleanOverrides = ['enable_multi_objective', 'use_autopilot'] as const;

/** An arm's override; null or absent is "no override". */
function override(value: unknown, path: string, issues: RuleValidationIssue[]): SrConfigOverride | undefined {
  if (value === undefined || value === null) return undefined;
  const object = objectOf(value);
  if (object === undefined) {
    issues.push(issue('invalid_shape', path, `expected an object or null, got ${describe(value)}`));
    return undefined;
  }
  const out: Record<string, number | boolean> = {};
  for (const field of numericOverrides) {
    const raw = object[field];
    if (raw === undefined || raw === null) continue;
    if (typeof raw === 'number' && Number.isFinite(raw)) out[field] = raw;
    else issues.push(issue('invalid_shape', `${path}.${field}`, `expected a number or null, got ${describe(raw)}`));
  }
  for (const field of booleanOverrides) {
    const raw = object[field];
    if (raw === undefined || raw === null) continue;
    if (typeof raw === 'boolean') out[field] = raw;
    else issues.push(issue('invalid_shape', `${path}.${field}`, `expected a boolean or null, got ${describe(raw)}`));
  }
  return out as SrConfigOverride;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing (missing field)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value;
}
