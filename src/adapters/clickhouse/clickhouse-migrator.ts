import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SwitchyardError } from '../../errors/switchyard-error.js';
import { bindSql } from './bind-sql.js';
import { clusterMigrationStatements } from './cluster-migration-sql.js';
import type { ClickHouseExecutor } from './clickhouse-executor.js';
import { columnNames, schemaMigrationColumns } from './analytics-insert-columns.js';
import { encodeTabSeparated } from './encode-tab-separated.js';
import { appliedMigrationsSql, createDatabaseSql, createMigrationsTableSql } from './sql/schema-migrations-sql.js';

/** One schemas/clickhouse/NNNN_<name>.sql file, split into statements (placeholders unbound). */
export interface ClickHouseMigration {
  readonly version: string;
  readonly name: string;
  readonly statements: readonly string[];
}

/**
 * schemas/clickhouse/, three levels up from this file both in the source tree and in dist/
 * (scripts/copy-assets.mjs copies the .sql files to dist/schemas/clickhouse/).
 */
export const defaultMigrationsDir = fileURLToPath(new URL('../../../schemas/clickhouse/', import.meta.url));

const migrationFile = /^(\d{4})_([a-z0-9_]+)\.sql$/;

/** Reads the migration files in version order. */
export async function loadClickHouseMigrations(dir: string = defaultMigrationsDir): Promise<ClickHouseMigration[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => migrationFile.test(name)).sort();
  } catch (error) {
    throw new SwitchyardError('SY_INTERNAL', { message: 'ClickHouse migrations folder is unreadable', cause: error, details: { dir } });
  }
  return Promise.all(
    names.map(async (file) => {
      const [, version = '', name = ''] = migrationFile.exec(file) ?? [];
      return { version, name, statements: splitStatements(await readFile(join(dir, file), 'utf8')) };
    }),
  );
}

/**
 * Splits a migration into statements: whole-line `--` comments are dropped (their placeholders
 * must not be bound) and a statement ends with `;` at the end of a line. ClickHouse's HTTP
 * interface runs one statement per request.
 */
export function splitStatements(sql: string): string[] {
  const code = sql
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n');
  return code
    .split(/;[ \t]*(?:\n|$)/)
    .map((statement) => statement.trim())
    .filter((statement) => statement !== '');
}

/**
 * Creates the database and the `schema_migrations` ledger, then applies each migration not yet
 * recorded, in order, recording it after its statements succeed. Returns the versions applied now.
 * With `cluster`, every statement (the ledger's too) runs in its cluster form
 * (`clusterMigrationStatements`: ON CLUSTER, replicated tables under Distributed ones).
 */
export async function applyClickHouseMigrations(
  executor: ClickHouseExecutor,
  database: string,
  migrations: readonly ClickHouseMigration[],
  nowMs: number,
  cluster?: string,
): Promise<string[]> {
  const run = async (statement: string) => {
    const bound = bindSql(statement, { database });
    for (const sql of cluster === undefined ? [bound] : clusterMigrationStatements(bound, cluster)) await executor.command(sql);
  };
  const appliedVersions = async () =>
    new Set((await executor.query<{ version: string }>(bindSql(appliedMigrationsSql, { database }))).map((row) => row.version));
  if (cluster !== undefined) {
    // ON CLUSTER waits for every node: with nothing to apply, a start must not depend on all replicas being up.
    const known = await appliedVersions().catch(() => undefined);
    if (known !== undefined && migrations.every((migration) => known.has(migration.version))) return [];
  }
  await run(createDatabaseSql);
  await run(createMigrationsTableSql);
  const applied = await appliedVersions();
  const appliedNow: string[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.version)) continue;
    for (const statement of migration.statements) await run(statement);
    const row = { version: migration.version, name: migration.name, applied_at: Math.floor(nowMs / 1000) };
    await executor.insertTabSeparated(`${database}.schema_migrations`, columnNames(schemaMigrationColumns), encodeTabSeparated(schemaMigrationColumns, [row]));
    appliedNow.push(migration.version);
  }
  return appliedNow;
}
