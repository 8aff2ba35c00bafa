import type { LlmCallApi } from '../llm-call-api.js';
import type { AnalyticsQuery } from '../../generated/schema-types.js';

/** Look-back presets accepted by `range` (the enum comes from schemas/http/analytics/analytics-query.json). */
export type AnalyticsRange = NonNullable<AnalyticsQuery['range']>;

/** The payment and model-call reads; the endpoint decides the default page size. */
export type AnalyticsEndpoint =
  | 'overview'
  | 'decisions'
  | 'gateway-scores'
  | 'log-summaries'
  | 'payment-audit'
  | 'preview-trace'
  | 'routing-stats'
  | 'llm/overview'
  | 'llm/usage'
  | 'llm/latency'
  | 'llm/errors'
  | 'llm/route-groups'
  | 'llm/prompt-cache'
  | 'llm/end-users'
  | 'llm/guards'
  | 'cost-savings';

/** Payment dimensions that can filter score snapshots, error summaries, log samples and gateway share. */
export const dimensionKeys = ['payment_method_type', 'payment_method', 'card_network', 'card_is_in', 'currency', 'country', 'auth_type'] as const;
export type DimensionKey = (typeof dimensionKeys)[number];

/**
 * How payment-audit / preview-trace filter on `status`: the two families the reference names
 * (`success`, `failure`) or one exact status (compared case-insensitively). It applies to each
 * result's latest outcome status, so `status=success` lists payments that ended well.
 */
export type StatusFilter =
  | { readonly kind: 'any' }
  | { readonly kind: 'success' }
  | { readonly kind: 'failure' }
  | { readonly kind: 'exact'; readonly status: string };

/** Filters only payment-audit and preview-trace use. Null means "not given". */
export interface AuditFilters {
  readonly paymentId: string | null;
  readonly requestId: string | null;
  /** The `gateway` parameter as given, echoed by the audit responses. */
  readonly gateway: string | null;
  /** The `route` parameter as given, echoed by the audit responses. */
  readonly route: string | null;
  /** Stored route values the `route` parameter stands for (empty: no route filter). */
  readonly routes: readonly string[];
  /** The `status` parameter as given, echoed by the audit responses. */
  readonly status: string | null;
  readonly statusFilter: StatusFilter;
  readonly flowType: string | null;
  readonly routingApproach: string | null;
  readonly excludeRoutingApproach: string | null;
  readonly errorCode: string | null;
}

/**
 * An analytics request after parsing (src/analytics/parse-analytics-query.ts): every default applied, every bound enforced, the window
 * resolved to absolute epoch milliseconds. Stores take only this, never the raw query string.
 */
export interface ParsedAnalyticsQuery {
  /** The authenticated merchant; a `merchant_id` query parameter is never used. */
  readonly merchantId: string;
  /** Echoed as the response `range`: the preset, or `custom` when start_ms/end_ms applied. */
  readonly range: AnalyticsRange | 'custom';
  /** Inclusive window bounds, epoch ms. */
  readonly startMs: number;
  readonly endMs: number;
  /** Width of a series bucket, ms; `bucket_ms` values are multiples of it. */
  readonly bucketMs: number;
  readonly page: number;
  readonly pageSize: number;
  /** Exact-match dimension filters; absent keys do not filter. */
  readonly dimensions: Readonly<Partial<Record<DimensionKey, string>>>;
  /** Gateways from the comma-separated `gateway` parameter; empty means all. */
  readonly gateways: readonly string[];
  readonly audit: AuditFilters;
  /** The `route_group` parameter: the one route group /analytics/llm/route-groups reports; null = every group. */
  readonly routeGroup: string | null;
  /** The `api` parameter: the /analytics/llm/* reads count only the calls that came through this API; null = every call. */
  readonly api: LlmCallApi | null;
  /** The `api_key_id` parameter: /analytics/llm/guards counts only this key's calls; null = every key. */
  readonly apiKeyId: string | null;
}
