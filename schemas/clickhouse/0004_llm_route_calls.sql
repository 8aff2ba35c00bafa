-- 0004_llm_route_calls: analytics_llm_route_calls, one row per model call routed in a gateway route
-- group (llm.call with routeGroup), with the decision the request was routed by.
--
-- Inputs:  {database:Identifier}, bound client-side by src/adapters/clickhouse/bind-sql.ts.
-- Outputs: the table; no rows. Written by AnalyticsStore.insert (the LlmCallRow of a routed call,
--          src/analytics/analytics-rows.ts, with created_at = floor(created_at_ms / 1000)); read by
--          /analytics/llm/route-groups (src/adapters/clickhouse/sql/llm-route-groups-sql.ts).
-- Errors:  none expected (IF NOT EXISTS); any engine error fails migrate() with SY_ANALYTICS_UNAVAILABLE.
--
-- A table of its own rather than columns added to analytics_llm_calls: ClickHouse 18.16 has no
-- ADD COLUMN IF NOT EXISTS, and a migration must stay safe to run again (a crash between the DDL
-- and the schema_migrations ledger). Same engine rules as 0001 and 0003: DateTime('UTC') + UInt64 ms,
-- ReplacingMergeTree keyed by event id and read counting each event id once, '' for absent strings,
-- daily UTC partitions dropped for retention. route_approach is sr, sr_downtime, explore, or '' for
-- a publisher that recorded only the group; eliminated_candidates holds `provider/model` of every
-- candidate of the group below its elimination threshold when the request was routed (tried or
-- not), repeated on every call of that request.

CREATE TABLE IF NOT EXISTS {database:Identifier}.analytics_llm_route_calls
(
    event_id String,
    merchant_id String,
    created_at DateTime('UTC'),
    created_at_ms UInt64,
    route_group String,
    provider String,
    model String,
    operation String,
    outcome String,
    error_class String,
    fallback_hops UInt16,
    request_id String,
    route_approach String,
    eliminated_candidates Array(String)
)
ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMMDD(created_at)
ORDER BY (merchant_id, route_group, created_at_ms, event_id);
