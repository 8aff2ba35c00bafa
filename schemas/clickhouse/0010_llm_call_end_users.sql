-- 0010_llm_call_end_users: analytics_llm_call_end_users, one row per model call that named an end
-- user (llm.call with `endUser`: OpenAI's user or safety_identifier, Messages' metadata.user_id, or the
-- x-switchyard-end-user header), with the API key it was made with: what /analytics/llm/end-users
-- reports per end user and key.
--
-- Inputs:  {database:Identifier}, bound client-side by src/adapters/clickhouse/bind-sql.ts.
-- Outputs: the table; no rows. Written by AnalyticsStore.insert (the LlmCallRow of every call with an
--          end user, src/ports/analytics/analytics-rows.ts, with created_at =
--          floor(created_at_ms / 1000)); read by /analytics/llm/end-users
--          (src/adapters/clickhouse/sql/llm-end-users-sql.ts).
-- Errors:  none expected (IF NOT EXISTS); any engine error fails migrate() with SY_ANALYTICS_UNAVAILABLE.
--
-- A table of its own rather than a column added to analytics_llm_calls for the reason 0004 gives:
-- ClickHouse 18.16 has no ADD COLUMN IF NOT EXISTS, and a migration must stay safe to run again. It
-- repeats the call's tokens, cost and outcome so the read needs no join. Response-cache hits are kept
-- (cache_hit 1, cost 0): they were the end user's requests, and the key's per-end-user limits counted
-- them for rpm. api_key_id is '' for calls made without a key. Calls recorded before this migration,
-- or by older publishers, have no row here. Same engine rules as 0001 and 0003: DateTime('UTC') +
-- UInt64 ms, ReplacingMergeTree keyed by event id and read counting each event id once, daily UTC
-- partitions dropped for retention.

CREATE TABLE IF NOT EXISTS {database:Identifier}.analytics_llm_call_end_users
(
    event_id String,
    merchant_id String,
    created_at DateTime('UTC'),
    created_at_ms UInt64,
    api_key_id String,
    end_user String,
    outcome String,
    cache_hit UInt8,
    input_tokens UInt64,
    output_tokens UInt64,
    cost_usd Float64
)
ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMMDD(created_at)
ORDER BY (merchant_id, created_at_ms, event_id);
