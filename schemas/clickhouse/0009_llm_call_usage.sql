-- 0009_llm_call_usage: analytics_llm_call_usage, one row per model call that reached a provider
-- (llm.call without cacheHit), with the API key it was made with and its prompt-cache and reasoning
-- usage: what /analytics/llm/prompt-cache reports per key and model.
--
-- Inputs:  {database:Identifier}, bound client-side by src/adapters/clickhouse/bind-sql.ts.
-- Outputs: the table; no rows. Written by AnalyticsStore.insert (the LlmCallRow of every call not
--          answered from the response cache, src/ports/analytics/analytics-rows.ts, with created_at =
--          floor(created_at_ms / 1000)); read by /analytics/llm/prompt-cache and the overview's
--          prompt-cache fields (src/adapters/clickhouse/sql/llm-prompt-cache-sql.ts).
-- Errors:  none expected (IF NOT EXISTS); any engine error fails migrate() with SY_ANALYTICS_UNAVAILABLE.
--
-- A table of its own rather than columns added to analytics_llm_calls for the reason 0004 gives:
-- ClickHouse 18.16 has no ADD COLUMN IF NOT EXISTS, and a migration must stay safe to run again (a
-- crash between the DDL and the schema_migrations ledger). It repeats the call's provider, model,
-- input tokens and cost so the prompt-cache reads need no join: the cache hit rate is
-- cache_read_tokens / input_tokens over the same rows. Response-cache hits are left out (no provider
-- saw their tokens, so they would dilute the provider's cache hit rate; 0005 reports them). Calls
-- recorded before this migration, or by older publishers, have no row here. api_key_id is '' for calls
-- made without a key (sessions, library, CLI). The token counts are 0 where the provider reported
-- none; prompt_cache_saved_usd is the call's cost at the full input price less its real cost
-- (negative when it wrote more to the cache than it read), 0 when it used no cache or is unpriced.
-- Same engine rules as 0001 and 0003: DateTime('UTC') + UInt64 ms, ReplacingMergeTree keyed by event
-- id and read counting each event id once, '' for absent strings, daily UTC partitions dropped for
-- retention.

CREATE TABLE IF NOT EXISTS {database:Identifier}.analytics_llm_call_usage
(
    event_id String,
    merchant_id String,
    created_at DateTime('UTC'),
    created_at_ms UInt64,
    api_key_id String,
    provider String,
    model String,
    input_tokens UInt64,
    output_tokens UInt64,
    cost_usd Float64,
    cache_read_tokens UInt64,
    cache_write_tokens UInt64,
    cache_write_1h_tokens UInt64,
    reasoning_tokens UInt64,
    prompt_cache_saved_usd Float64
)
ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMMDD(created_at)
ORDER BY (merchant_id, created_at_ms, event_id);
