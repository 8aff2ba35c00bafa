-- 0001_domain_events: analytics_domain_events, one row per routing fact (decision, decision
-- failure, feedback, score snapshot, request hit), in decision-engine's domain-row vocabulary.
--
-- Inputs:  {database:Identifier}, bound client-side by src/adapters/clickhouse/bind-sql.ts.
-- Outputs: the table; no rows. Written by AnalyticsStore.insert (src/analytics/analytics-rows.ts
--          DomainEventRow plus created_at = floor(created_at_ms / 1000)); read by the seven reads.
-- Errors:  none expected (IF NOT EXISTS); any engine error fails migrate() with SY_ANALYTICS_UNAVAILABLE.
--
-- Runs unchanged on ClickHouse 18.16 and chDB 26.x:
-- * DateTime('UTC') + UInt64 milliseconds (18.16 has no DateTime64); the partition key is a UTC day
--   whatever the server's time zone, so retention drops whole UTC days.
-- * ReplacingMergeTree ordered by (merchant_id, created_at_ms, event_id): a re-sent event has the
--   same key and collapses. Reads still use FINAL, because 18.16 keeps duplicates until a merge.
-- * Strings are never NULL ('' = absent): 18.16 has no nullable keys and filters stay simple.
-- * No TTL: retention is AnalyticsStore.dropPartitionsBefore, identical on both engines.
-- Statements end with ';' at the end of a line (the migrator splits on that).

CREATE TABLE IF NOT EXISTS {database:Identifier}.analytics_domain_events
(
    event_id String,
    merchant_id String,
    created_at DateTime('UTC'),
    created_at_ms UInt64,
    api_flow String,
    flow_type String,
    summary_kind String,
    payment_id String,
    request_id String,
    lookup_key String,
    global_request_id String,
    trace_id String,
    payment_method_type String,
    payment_method String,
    card_network String,
    card_is_in String,
    currency String,
    country String,
    auth_type String,
    gateway String,
    event_stage String,
    routing_approach String,
    rule_name String,
    status String,
    error_code String,
    error_message String,
    score_value Nullable(Float64),
    sigma_factor Nullable(Float64),
    average_latency Nullable(Float64),
    tp99_latency Nullable(Float64),
    transaction_count Nullable(UInt64),
    route String,
    details String
)
ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMMDD(created_at)
ORDER BY (merchant_id, created_at_ms, event_id);
