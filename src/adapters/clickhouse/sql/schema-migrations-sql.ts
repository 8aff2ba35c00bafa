/**
 * The migration ledger: which schemas/clickhouse/NNNN_<name>.sql files have been applied.
 * ReplacingMergeTree keyed by version: two processes migrating at once may both record a version,
 * which collapses; every migration is written idempotently (IF NOT EXISTS) for the same reason.
 *
 * Inputs: {database:Identifier} (and {database:String} where compared as a value)
 * Outputs:
 *   appliedMigrationsSql: rows { version: String }
 */
export const createDatabaseSql = 'CREATE DATABASE IF NOT EXISTS {database:Identifier}';

export const createMigrationsTableSql = `CREATE TABLE IF NOT EXISTS {database:Identifier}.schema_migrations
(
    version String,
    name String,
    applied_at DateTime('UTC')
)
ENGINE = ReplacingMergeTree()
ORDER BY version`;

export const appliedMigrationsSql = 'SELECT DISTINCT version FROM {database:Identifier}.schema_migrations ORDER BY version';
