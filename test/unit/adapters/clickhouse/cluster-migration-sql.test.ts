import { describe, expect, it } from 'vitest';
import { bindSql } from '../../../../src/adapters/clickhouse/bind-sql.js';
import { loadClickHouseMigrations } from '../../../../src/adapters/clickhouse/clickhouse-migrator.js';
import { clusterLocalTable, clusterMigrationStatements } from '../../../../src/adapters/clickhouse/cluster-migration-sql.js';
import { createDatabaseSql, createMigrationsTableSql } from '../../../../src/adapters/clickhouse/sql/schema-migrations-sql.js';

const bound = (sql: string) => bindSql(sql, { database: 'analytics' });

describe('clusterMigrationStatements', () => {
  it('creates the database ON CLUSTER', () => {
    expect(clusterMigrationStatements(bound(createDatabaseSql), 'switchyard')).toEqual(['CREATE DATABASE IF NOT EXISTS `analytics` ON CLUSTER switchyard']);
  });

  it('turns a ReplacingMergeTree table into a replicated local table and a Distributed table of the same name', () => {
    const sql = bound(`CREATE TABLE IF NOT EXISTS {database:Identifier}.events
(
    event_id String,
    created_at DateTime('UTC')
)
ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMMDD(created_at)
ORDER BY (merchant_id, created_at_ms, event_id)`);
    expect(clusterMigrationStatements(sql, 'c1')).toEqual([
      `CREATE TABLE IF NOT EXISTS \`analytics\`.events_local ON CLUSTER c1
(
    event_id String,
    created_at DateTime('UTC')
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/analytics/events_local', '{replica}')
PARTITION BY toYYYYMMDD(created_at)
ORDER BY (merchant_id, created_at_ms, event_id)`,
      'CREATE TABLE IF NOT EXISTS `analytics`.events ON CLUSTER c1 AS `analytics`.events_local\n' +
        'ENGINE = Distributed(c1, `analytics`, events_local, cityHash64(merchant_id, created_at_ms, event_id))',
    ]);
  });

  it('keeps engine arguments (the version column) after the ZooKeeper path and replica', () => {
    const sql = bound('CREATE TABLE IF NOT EXISTS {database:Identifier}.rows (a String, version UInt64) ENGINE = ReplacingMergeTree(version) ORDER BY a');
    const [local, distributed] = clusterMigrationStatements(sql, 'c1');
    expect(local).toContain("ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/analytics/rows_local', '{replica}', version) ORDER BY a");
    expect(distributed).toContain('Distributed(c1, `analytics`, rows_local, cityHash64(a))');
  });

  it('replicates a plain MergeTree as ReplicatedMergeTree', () => {
    const [local] = clusterMigrationStatements(bound('CREATE TABLE IF NOT EXISTS {database:Identifier}.t (a String) ENGINE = MergeTree() ORDER BY (a)'), 'c1');
    expect(local).toContain("ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/analytics/t_local', '{replica}') ORDER BY (a)");
  });

  it('refuses statements it has no cluster form for, and bad cluster names', () => {
    expect(() => clusterMigrationStatements(bound('ALTER TABLE {database:Identifier}.t ADD COLUMN x String'), 'c1')).toThrow(/no cluster form/);
    expect(() => clusterMigrationStatements(bound('CREATE TABLE IF NOT EXISTS {database:Identifier}.t (a String) ENGINE = MergeTree()'), 'c1')).toThrow(
      /ORDER BY/,
    );
    expect(() => clusterMigrationStatements(bound(createDatabaseSql), 'c1; DROP')).toThrow(/cluster name/);
  });

  it('has a cluster form for every migration and the ledger: two tables each, all ON CLUSTER, replicated or Distributed', async () => {
    const statements = [createMigrationsTableSql, ...(await loadClickHouseMigrations()).flatMap((migration) => migration.statements)];
    for (const statement of statements) {
      const out = clusterMigrationStatements(bound(statement), 'switchyard');
      expect(out).toHaveLength(2);
      const name = /`analytics`\.([a-z_]+)/.exec(statement.replace('{database:Identifier}', '`analytics`'))?.[1] ?? '';
      expect(out[0]).toMatch(new RegExp(`\\.${clusterLocalTable(name)} ON CLUSTER switchyard\\s`));
      expect(out[0]).toMatch(/ENGINE = Replicated[A-Za-z]*MergeTree\('\/clickhouse\/tables\/\{shard\}\/analytics\/[a-z_]+_local', '\{replica\}'/);
      expect(out[1]).toMatch(new RegExp(`\\.${name} ON CLUSTER switchyard AS \`analytics\`\\.${name}_local\\nENGINE = Distributed\\(switchyard, `));
      // The 18.16 limits of clickhouse-compat.md hold for the cluster form too.
      for (const sql of out) expect(sql).not.toMatch(/DateTime64|toStartOfInterval|insert_deduplication_token|\{[a-z_]+:[A-Za-z()]+\}/);
    }
  });
});
