-- 0005_llm_cache_hits: analytics_llm_cache_hits, one row per gateway answer served from the response
-- cache (llm.call with cacheHit), with what it saved.
--
-- Inputs:  {database:Identifier}, bound client-side by src/adapters/clickhouse/bind-sql.ts.
-- Outputs: the table; no rows. Written by AnalyticsStore.insert (the LlmCallRow of a hit,
--          src/analytics/analytics-rows.ts, with created_at = floor(created_at_ms / 1000)); read by
--          /analytics/llm/overview (src/adapters/clickhouse/sql/llm-sql.ts, llmCacheSql).
-- Errors:  none expected (IF NOT EXISTS); any engine error fails migrate() with SY_ANALYTICS_UNAVAILABLE.
--
-- The `cache_hit` flag of a call is its event id being in this table, a table of its own rather than
-- a column added to analytics_llm_calls for the reason 0004 gives: ClickHouse 18.16 has no
-- ADD COLUMN IF NOT EXISTS, and a migration must stay safe to run again (a crash between the DDL
-- and the schema_migrations ledger). The hit is also a row of analytics_llm_calls (cost 0), so
-- call counts include it. Same engine rules as 0001, 0003 and 0004: DateTime('UTC') + UInt64 ms,
-- ReplacingMergeTree keyed by event id and read counting each event id once, '' for absent
-- strings, daily UTC partitions dropped for retention. saved_cost_usd is the cached tokens at the
-- registry's price when the hit was served, 0 when no price was known.

CREATE TABLE IF NOT EXISTS {database:Identifier}.analytics_llm_cache_hits
(
    event_id String,
    merchant_id String,
    created_at DateTime('UTC'),
    created_at_ms UInt64,
    provider String,
    model String,
    input_tokens UInt64,
    output_tokens UInt64,
    saved_cost_usd Float64,
    request_id String
)
ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMMDD(created_at)
ORDER BY (merchant_id, created_at_ms, event_id);
