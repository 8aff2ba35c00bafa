import { describe, expect, it } from 'vitest';
import { bindSql } from '../../../src/adapters/clickhouse/bind-sql.js';
import { loadClickHouseMigrations, splitStatements } from '../../../src/adapters/clickhouse/clickhouse-migrator.js';

describe('ClickHouse migrations', () => {
  it('loads schemas/clickhouse in version order', async () => {
    const migrations = await loadClickHouseMigrations();
    expect(migrations.map((m) => `${m.version}_${m.name}`)).toEqual([
      '0001_domain_events',
      '0002_api_events',
      '0003_llm_calls',
      '0004_llm_route_calls',
      '0005_llm_cache_hits',
      '0006_llm_call_apis',
      '0007_decision_policies',
      '0008_cost_settlement_rows',
      '0009_llm_call_usage',
      '0010_llm_call_end_users',
      '0011_llm_guard_outcomes',
    ]);
  });

  it('uses only SQL both engines accept', async () => {
    // clickhouse-compat.md: these fail on the 18.16 server.
    const forbidden = [/DateTime64/i, /toStartOfInterval/i, /async_insert/i, /insert_deduplication_token/i, /LowCardinality/i, /\bTTL\b/];
    for (const migration of await loadClickHouseMigrations()) {
      for (const statement of migration.statements) {
        for (const pattern of forbidden) expect(statement).not.toMatch(pattern);
        expect(statement).toMatch(/IF NOT EXISTS/);
        expect(bindSql(statement, { database: 'db' })).not.toMatch(/\{[a-z_]+:[A-Za-z()]+\}/);
      }
    }
  });

  it('splits on line-ending semicolons and drops comment lines with their placeholders', () => {
    const sql = '-- header {database:Identifier}\nCREATE TABLE a (x String);\n\n  -- note; with semicolon\nCREATE TABLE b (y String) ;\n';
    expect(splitStatements(sql)).toEqual(['CREATE TABLE a (x String)', 'CREATE TABLE b (y String)']);
  });
});
