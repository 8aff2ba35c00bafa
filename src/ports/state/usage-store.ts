import type { BudgetPeriod, LimitName, RateLimits } from './key-policy.js';

/** Whose limit refused a request: the API key's own, or that of the end user the call named. */
export type LimitHolder = 'key' | 'end_user';

export type Admission =
  | { readonly admitted: true }
  | { readonly admitted: false; readonly limit: LimitName; readonly retryAfterS: number; readonly holder: LimitHolder };

/**
 * One end user of a key (issue 39): its id as the call named it (the store keys its counters by a
 * digest of it, beside the key's own, so one atomic step covers both) and its limits.
 */
export interface EndUserAdmission {
  readonly endUser: string;
  readonly limits: RateLimits;
}

export interface AdmissionRequest {
  /** Names this request's concurrency slot and budget reservation until `release`. */
  readonly leaseId: string;
  /** The most this request can cost (max_tokens × price): held against the budget until released. */
  readonly reserveUsd: number;
  readonly nowMs: number;
  /** A lease not released by then (its replica died) stops counting. */
  readonly leaseTtlMs: number;
}

export interface SpendRecord {
  /** The `llm.call` event id: a record counts once however often it is reported. */
  readonly eventId: string;
  readonly tokens: number;
  readonly costUsd: number;
  readonly atMs: number;
}

export interface KeyUsage {
  readonly requestsThisMinute: number;
  readonly tokensThisMinute: number;
  readonly inFlight: number;
  readonly spendThisPeriodUsd: number;
  readonly reservedUsd: number;
}

export interface UsageStore {
  /**
   * Admits one request of `keyId` under `limits`, or names the limit that refuses it: one atomic
   * step across replicas (a Redis script), so `rpm: 50` admits exactly 50 of 100 parallel requests.
   */
  admit(keyId: string, limits: RateLimits, request: AdmissionRequest, endUser?: EndUserAdmission): Promise<Admission>;
  /**
   * Ends an admitted request: frees its slot and its budget reservation (the end user's too, when
   * it was admitted with one). Idempotent.
   */
  release(keyId: string, leaseId: string, endUser?: string): Promise<void>;
  /**
   * Counts a call's tokens and cost for the key, once per event id: the request reports its own
   * calls as they end, and the spine's `llm.call` events reconcile what a dead replica never did.
   * Returns false when the event had been counted already. A call made for an end user counts for
   * it too, once per event id as well.
   */
  recordSpend(keyId: string, spend: SpendRecord, endUser?: string): Promise<boolean>;
  /** The key's usage, or that of one of its end users. */
  usage(keyId: string, period: BudgetPeriod, nowMs: number, endUser?: string): Promise<KeyUsage>;
}
