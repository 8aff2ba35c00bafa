import type { BudgetPeriod, KeyLimits, LimitName } from './key-policy.js';

export type Admission = { readonly admitted: true } | { readonly admitted: false; readonly limit: LimitName; readonly retryAfterS: number };

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
  admit(keyId: string, limits: KeyLimits, request: AdmissionRequest): Promise<Admission>;
  /** Ends an admitted request: frees its slot and its budget reservation. Idempotent. */
  release(keyId: string, leaseId: string): Promise<void>;
  /**
   * Counts a call's tokens and cost for the key, once per event id: the request reports its own
   * calls as they end, and the spine's `llm.call` events reconcile what a dead replica never did.
   * Returns false when the event had been counted already.
   */
  recordSpend(keyId: string, spend: SpendRecord): Promise<boolean>;
  usage(keyId: string, period: BudgetPeriod, nowMs: number): Promise<KeyUsage>;
}
