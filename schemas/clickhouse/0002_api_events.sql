-- 0002_api_events: analytics_api_events, one row per HTTP call on a decision route (api.requested).
--
-- Inputs:  {database:Identifier}, bound client-side by src/adapters/clickhouse/bind-sql.ts.
-- Outputs: the table; no rows. Written by AnalyticsStore.insert (src/analytics/analytics-rows.ts
--          ApiEventRow plus created_at = floor(created_at_ms / 1000)). No /analytics read uses it:
--          request hits are derived into analytics_domain_events when the event is mapped.
-- Errors:  none expected (IF NOT EXISTS); any engine error fails migrate() with SY_ANALYTICS_UNAVAILABLE.
--
-- Same engine rules as 0001 (DateTime('UTC') + UInt64 ms, ReplacingMergeTree keyed by event id,
-- '' for absent strings, daily UTC partitions dropped for retention). Request and response bodies
-- are not kept: they may hold card data.

CREATE TABLE IF NOT EXISTS {database:Identifier}.analytics_api_events
(
    event_id String,
    merchant_id String,
    created_at DateTime('UTC'),
    created_at_ms UInt64,
    request_id String,
    payment_id String,
    api_flow String,
    flow_type String,
    url_path String,
    http_method String,
    status_code UInt16,
    latency_ms Float64,
    error_code String,
    error_message String,
    user_agent String
)
ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMMDD(created_at)
ORDER BY (merchant_id, created_at_ms, event_id);
