-- 0003_llm_calls: analytics_llm_calls, one row per model call of the generation toolkit (llm.call).
--
-- Inputs:  {database:Identifier}, bound client-side by src/adapters/clickhouse/bind-sql.ts.
-- Outputs: the table; no rows. Written by AnalyticsStore.insert (src/analytics/analytics-rows.ts
--          LlmCallRow plus created_at = floor(created_at_ms / 1000)); read by /analytics/llm/*
--          (src/adapters/clickhouse/sql/llm-sql.ts).
-- Errors:  none expected (IF NOT EXISTS); any engine error fails migrate() with SY_ANALYTICS_UNAVAILABLE.
--
-- Same engine rules as 0001 (DateTime('UTC') + UInt64 ms, ReplacingMergeTree keyed by event id and
-- read with FINAL, '' for absent strings, daily UTC partitions dropped for retention). Time to first
-- token is a plain Float64 with a has_ttft flag (streams only), so quantiles can skip the rest with
-- the -If combinator on both engines. No prompt or completion text is ever stored.

CREATE TABLE IF NOT EXISTS {database:Identifier}.analytics_llm_calls
(
    event_id String,
    merchant_id String,
    created_at DateTime('UTC'),
    created_at_ms UInt64,
    provider String,
    model String,
    operation String,
    surface String,
    input_tokens UInt64,
    output_tokens UInt64,
    cost_usd Float64,
    latency_ms Float64,
    ttft_ms Float64,
    has_ttft UInt8,
    outcome String,
    error_class String,
    fallback_hops UInt16,
    user_id String,
    request_id String,
    batch_id String,
    job_id String
)
ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMMDD(created_at)
ORDER BY (merchant_id, created_at_ms, event_id);
