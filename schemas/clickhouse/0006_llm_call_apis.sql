-- 0006_llm_call_apis: analytics_llm_call_apis, one row per model call that says which API it came
-- through (llm.call with `api`): chat_completions, responses, messages, embeddings (the /v1 gateway),
-- toolkit (the toolkit's own /api/* routes and its WebSocket), batch (batch jobs).
--
-- Inputs:  {database:Identifier}, bound client-side by src/adapters/clickhouse/bind-sql.ts.
-- Outputs: the table; no rows. Written by AnalyticsStore.insert (the LlmCallRow of a call with an
--          api, src/ports/analytics/analytics-rows.ts, with created_at = floor(created_at_ms / 1000));
--          read by /analytics/llm/* (src/adapters/clickhouse/sql/llm-sql.ts and llm-route-groups-sql.ts
--          join it to the calls by event id for the `api` filter and the overview's per-API split).
-- Errors:  none expected (IF NOT EXISTS); any engine error fails migrate() with SY_ANALYTICS_UNAVAILABLE.
--
-- A table of its own rather than a column added to analytics_llm_calls for the reason 0004 gives:
-- ClickHouse 18.16 has no ADD COLUMN IF NOT EXISTS, and a migration must stay safe to run again (a
-- crash between the DDL and the schema_migrations ledger). Only the key and the api are kept: the
-- reads take everything else from analytics_llm_calls, so usage and spend are still counted once per
-- call (the join is ANY LEFT: a call without a row here, e.g. from an older publisher or a library
-- call, reads with api ''). The row carries the call's own created_at_ms, so the same window
-- bounds select both sides. Same engine rules as 0001 and 0003: DateTime('UTC') + UInt64 ms,
-- ReplacingMergeTree keyed by event id and read counting each event id once, daily UTC partitions
-- dropped for retention.

CREATE TABLE IF NOT EXISTS {database:Identifier}.analytics_llm_call_apis
(
    event_id String,
    merchant_id String,
    created_at DateTime('UTC'),
    created_at_ms UInt64,
    api String
)
ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMMDD(created_at)
ORDER BY (merchant_id, created_at_ms, event_id);
