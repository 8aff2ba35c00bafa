import { SwitchyardError } from '../errors/switchyard-error.js';
import { isLlmCallApi, llmCallApis, type LlmCallApi } from '../ports/llm-call-api.js';
import { routeGroupNamePattern } from '../ports/state/route-group.js';
import { resolveRouteFilter } from './audit-routes.js';
import {
  dimensionKeys,
  type AnalyticsEndpoint,
  type AnalyticsRange,
  type DimensionKey,
  type ParsedAnalyticsQuery,
  type StatusFilter,
} from '../ports/analytics/analytics-query.js';
import { analyticsRanges, isAnalyticsRange, resolveAnalyticsWindow } from './analytics-window.js';

/** Page-size bounds and defaults (decision-engine §7.3: clamp 1..50, default 10, audit reads 12). */
export const analyticsPageSize = { min: 1, max: 50, default: 10, auditDefault: 12 } as const;

/** One rejected query parameter, named so the 400 response can say which. */
export interface AnalyticsQueryIssue {
  readonly parameter: string;
  readonly message: string;
}

export type AnalyticsQueryParseResult =
  | { readonly ok: true; readonly query: ParsedAnalyticsQuery }
  | { readonly ok: false; readonly issues: readonly AnalyticsQueryIssue[] };

export interface AnalyticsQueryContext {
  /** The merchant of the credential; the only merchant an analytics read may see. */
  readonly merchantId: string;
  readonly nowMs: number;
  readonly endpoint: AnalyticsEndpoint;
}

const auditEndpoints: ReadonlySet<AnalyticsEndpoint> = new Set(['payment-audit', 'preview-trace']);
const rangeList = Object.keys(analyticsRanges).join(', ');
/** An API key id as guard.applied carries it (schemas/events/guard.applied.v1.json: at most 128). */
const maxApiKeyIdLength = 128;

/**
 * Turns a raw query string (as fastify hands it over: strings, arrays for repeated keys, or numbers
 * once coerced) into a {@link ParsedAnalyticsQuery}. Pure: the clock and merchant come in `context`.
 *
 * Malformed values are rejected, each issue naming its parameter: a non-integer `page`/`page_size`,
 * a negative or non-integer `start_ms`/`end_ms`, a `range` outside the presets (stricter than the
 * reference, which silently falls back to 1h), a `route_group` that cannot name a route group, an
 * `api` outside src/ports/llm-call-api.ts's list, an `api_key_id` longer than a key id, or a
 * repeated single-valued parameter. Well-typed
 * values out of bounds are clamped as the reference does (`page` ≥ 1, `page_size` 1..50), and a
 * start/end pair with end ≤ start is ignored in favour of the range. Empty values count as absent.
 */
export function parseAnalyticsQuery(raw: Readonly<Record<string, unknown>>, context: AnalyticsQueryContext): AnalyticsQueryParseResult {
  const issues: AnalyticsQueryIssue[] = [];
  const reader = createReader(raw, issues);

  const rangeText = reader.text('range');
  let range: AnalyticsRange | undefined;
  if (rangeText !== undefined) {
    if (isAnalyticsRange(rangeText)) range = rangeText;
    else issues.push({ parameter: 'range', message: `range must be one of ${rangeList}` });
  }
  const startMs = reader.epochMs('start_ms');
  const endMs = reader.epochMs('end_ms');
  const page = reader.integer('page');
  const pageSize = reader.integer('page_size');

  const dimensions: Partial<Record<DimensionKey, string>> = {};
  for (const key of dimensionKeys) {
    const value = reader.text(key);
    if (value !== undefined) dimensions[key] = value;
  }
  const gatewayValues = reader.list('gateway');
  const gateways = [
    ...new Set(
      gatewayValues
        .flatMap((v) => v.split(','))
        .map((g) => g.trim())
        .filter((g) => g !== ''),
    ),
  ];

  const routeGroup = reader.text('route_group') ?? null;
  if (routeGroup !== null && !routeGroupNamePattern.test(routeGroup)) {
    issues.push({ parameter: 'route_group', message: 'route_group must be a route group name (a letter, then up to 63 letters, digits, _ . -)' });
  }

  const apiText = reader.text('api');
  let api: LlmCallApi | null = null;
  if (apiText !== undefined) {
    if (isLlmCallApi(apiText)) api = apiText;
    else issues.push({ parameter: 'api', message: `api must be one of ${llmCallApis.join(', ')}` });
  }

  const apiKeyId = reader.text('api_key_id') ?? null;
  if (apiKeyId !== null && apiKeyId.length > maxApiKeyIdLength) {
    issues.push({ parameter: 'api_key_id', message: `api_key_id must be at most ${maxApiKeyIdLength} characters` });
  }

  const route = reader.text('route') ?? null;
  const status = reader.text('status') ?? null;
  const audit = {
    paymentId: reader.text('payment_id') ?? null,
    requestId: reader.text('request_id') ?? null,
    gateway: gatewayValues.length === 0 ? null : gatewayValues.join(','),
    route,
    routes: route === null ? [] : resolveRouteFilter(route),
    status,
    statusFilter: toStatusFilter(status),
    flowType: reader.text('flow_type') ?? null,
    routingApproach: reader.text('routing_approach') ?? null,
    excludeRoutingApproach: reader.text('exclude_routing_approach') ?? null,
    errorCode: reader.text('error_code') ?? null,
  };

  if (issues.length > 0) return { ok: false, issues };

  const window = resolveAnalyticsWindow({ range, startMs, endMs, nowMs: context.nowMs });
  const defaultPageSize = auditEndpoints.has(context.endpoint) ? analyticsPageSize.auditDefault : analyticsPageSize.default;
  return {
    ok: true,
    query: {
      merchantId: context.merchantId,
      ...window,
      page: Math.max(1, page ?? 1),
      pageSize: clamp(pageSize ?? defaultPageSize, analyticsPageSize.min, analyticsPageSize.max),
      dimensions,
      gateways,
      audit,
      routeGroup,
      api,
      apiKeyId,
    },
  };
}

/** The error the API answers 400 with; `details.parameters` lists each rejected parameter. */
export function analyticsQueryError(issues: readonly AnalyticsQueryIssue[]): SwitchyardError {
  return new SwitchyardError('SY_REQUEST_INVALID', {
    message: `Invalid query parameters: ${issues.map((issue) => issue.message).join('; ')}`,
    details: { parameters: issues.map((issue) => issue.parameter), issues },
  });
}

function toStatusFilter(status: string | null): StatusFilter {
  if (status === null) return { kind: 'any' };
  const lower = status.toLowerCase();
  if (lower === 'success' || lower === 'failure') return { kind: lower };
  return { kind: 'exact', status };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

const integerPattern = /^[+-]?\d+$/;

/** Reads single values, integers, epoch ms and lists off a raw query string, recording each malformed one in `issues`. */
export function createReader(raw: Readonly<Record<string, unknown>>, issues: AnalyticsQueryIssue[]) {
  /** The single value of a parameter, or undefined when absent or empty. */
  const single = (name: string): string | number | undefined => {
    let value = raw[name];
    if (Array.isArray(value)) {
      const present = value.filter((v) => v !== '' && v !== undefined && v !== null);
      if (present.length > 1) {
        issues.push({ parameter: name, message: `${name} must be given once` });
        return undefined;
      }
      value = present[0];
    }
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value === 'string' || typeof value === 'number') return value;
    issues.push({ parameter: name, message: `${name} must be a string` });
    return undefined;
  };

  const integer = (name: string, message = `${name} must be an integer`): number | undefined => {
    const value = single(name);
    if (value === undefined) return undefined;
    const parsed = typeof value === 'number' ? value : integerPattern.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(parsed)) {
      issues.push({ parameter: name, message });
      return undefined;
    }
    return parsed;
  };

  return {
    integer,
    epochMs(name: string): number | undefined {
      const message = `${name} must be a non-negative integer (epoch milliseconds)`;
      const value = integer(name, message);
      if (value !== undefined && value < 0) {
        issues.push({ parameter: name, message });
        return undefined;
      }
      return value;
    },
    text(name: string): string | undefined {
      const value = single(name);
      return value === undefined ? undefined : String(value);
    },
    /** Every value of a parameter that may repeat (`gateway=a&gateway=b`). */
    list(name: string): string[] {
      const value = raw[name];
      const values = Array.isArray(value) ? value : [value];
      const out: string[] = [];
      for (const v of values) {
        if (v === undefined || v === null || v === '') continue;
        if (typeof v === 'string' || typeof v === 'number') out.push(String(v));
        else issues.push({ parameter: name, message: `${name} must be a string` });
      }
      return out;
    },
  };
}
