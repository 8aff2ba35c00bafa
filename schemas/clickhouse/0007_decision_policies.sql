-- 0007_decision_policies: analytics_decision_policies, one row per decision that logged its policy
-- (decision.created with `policy`): the probability with which the decided gateway was picked, the
-- candidates with their scores before hedging and elimination, and the parameters of the rule.
--
-- Inputs:  {database:Identifier}, bound client-side by src/adapters/clickhouse/bind-sql.ts.
-- Outputs: the table; no rows. Written by AnalyticsStore.insert (the DecisionPolicyRow of a decision,
--          src/ports/analytics/analytics-rows.ts, with created_at = floor(created_at_ms / 1000));
--          read by POST /analytics/counterfactual (src/adapters/clickhouse/sql/counterfactual-sql.ts
--          joins it to the payment's feedback rows in analytics_domain_events by payment id).
-- Errors:  none expected (IF NOT EXISTS); any engine error fails migrate() with SY_ANALYTICS_UNAVAILABLE.
--
-- A side table keyed by the decision's event id, for the reason 0004 gives: ClickHouse 18.16 has no
-- ADD COLUMN IF NOT EXISTS, and a migration must stay safe to run again. `candidates` is the JSON
-- list [{gateway, score, eliminationScore}] as the event carries it (parsed by the reader, never by
-- SQL: 18.16's JSON functions differ from chDB's). Numbers that may be absent are Nullable(Float64)
-- (bucket size and elimination threshold); flags are UInt8. Same engine rules as 0001: DateTime('UTC')
-- + UInt64 ms, ReplacingMergeTree keyed by event id and read with FINAL, daily UTC partitions dropped
-- for retention.

CREATE TABLE IF NOT EXISTS {database:Identifier}.analytics_decision_policies
(
    event_id String,
    merchant_id String,
    created_at DateTime('UTC'),
    created_at_ms UInt64,
    payment_id String,
    gateway String,
    routing_approach String,
    window_dimension String,
    currency String,
    amount Float64,
    propensity Float64,
    hedged UInt8,
    hedging_percent Float64,
    bucket_size Nullable(Float64),
    elimination_threshold Nullable(Float64),
    elimination_divisor Float64,
    multi_objective UInt8,
    candidates String
)
ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMMDD(created_at)
ORDER BY (merchant_id, created_at_ms, event_id);
