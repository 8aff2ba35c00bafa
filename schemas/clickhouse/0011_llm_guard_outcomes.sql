-- 0011_llm_guard_outcomes: analytics_llm_guard_outcomes, one row per guardrail outcome (guard.applied:
-- one guard in one stage of one model call that found something), with the API key and route group of
-- the call: what /analytics/llm/guards counts per guard, stage, action, key and time bucket.
--
-- Inputs:  {database:Identifier}, bound client-side by src/adapters/clickhouse/bind-sql.ts.
-- Outputs: the table; no rows. Written by AnalyticsStore.insert (the GuardOutcomeRow of every
--          guard.applied event, src/ports/analytics/analytics-rows.ts, with created_at =
--          floor(created_at_ms / 1000)); read by /analytics/llm/guards
--          (src/adapters/clickhouse/sql/llm-guards-sql.ts).
-- Errors:  none expected (IF NOT EXISTS); any engine error fails migrate() with SY_ANALYTICS_UNAVAILABLE.
--
-- Never the matched text nor the placeholder map: the event carries neither. The same outcome also
-- stays a domain row of analytics_domain_events (flow guard_applied_<action>, for log-summaries); this
-- table is the one the guard reads aggregate, so they need no JSON parsing of `details`. `found` is
-- how many values the guard found in the stage (1 for injection and size guards); `score` the
-- injection guards' highest score (Nullable: absent for the others); `refused` 1 for the outcome that
-- refused the call. api_key_id and route_group are '' when the call had none (a session, a call not
-- routed in a group, a call refused before routing). Same engine rules as 0001 and 0003:
-- DateTime('UTC') + UInt64 ms, ReplacingMergeTree keyed by event id and read counting each event id
-- once, daily UTC partitions dropped for retention.

CREATE TABLE IF NOT EXISTS {database:Identifier}.analytics_llm_guard_outcomes
(
    event_id String,
    merchant_id String,
    created_at DateTime('UTC'),
    created_at_ms UInt64,
    guard String,
    stage String,
    action String,
    found UInt32,
    score Nullable(Float64),
    refused UInt8,
    surface String,
    request_id String,
    api_key_id String,
    route_group String
)
ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMMDD(created_at)
ORDER BY (merchant_id, created_at_ms, event_id);
