-- 0008_cost_settlement_rows: cost_settlement_rows, one row per fee-bearing line of an uploaded
-- settlement report (cost ingestion, docs/costs.md), as normalised by src/costs/ingestion/.
--
-- Inputs:  {database:Identifier}, bound client-side by src/adapters/clickhouse/bind-sql.ts.
-- Outputs: the table; no rows. Written by CostRowStore.insertRows (src/ports/analytics/cost-rows.ts,
--          src/adapters/clickhouse/clickhouse-cost-row-store.ts); tombstoned by
--          CostRowStore.deleteIngestion; counted by CostRowStore.countRows.
-- Errors:  none expected (IF NOT EXISTS); any engine error fails migrate() with SY_ANALYTICS_UNAVAILABLE.
--
-- Runs unchanged on ClickHouse 18.16 and chDB 26.x:
-- * Exactly once by row key (merchant_id, ingestion_id, line): ReplacingMergeTree(version) keeps the
--   highest version of a key, so a batch inserted twice collapses, and every read uses FINAL
--   (18.16 keeps duplicates until a merge).
-- * Deleting an ingestion inserts its rows again with version 2 and deleted = 1 (a tombstone)
--   instead of ALTER ... DELETE, a mutation whose completion timing differs between the engines;
--   reads keep `deleted = 0`.
-- * DateTime('UTC') + UInt64 milliseconds (18.16 has no DateTime64); strings never NULL ('' = absent).
-- * Monthly partitions by ingestion time; not in the analytics retention list (fees are kept).
-- Statements end with ';' at the end of a line (the migrator splits on that).

CREATE TABLE IF NOT EXISTS {database:Identifier}.cost_settlement_rows
(
    merchant_id String,
    ingestion_id String,
    line UInt64,
    connector String,
    account String,
    txn_ref String,
    card_network String,
    variant String,
    funding String,
    issuer_country String,
    currency String,
    ic_category String,
    txn_date String,
    gross Float64,
    total_fee Float64,
    interchange Float64,
    scheme_fee Float64,
    markup Float64,
    commission Float64,
    ingested_at DateTime('UTC'),
    ingested_at_ms UInt64,
    version UInt64,
    deleted UInt8
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(ingested_at)
ORDER BY (merchant_id, ingestion_id, line);
