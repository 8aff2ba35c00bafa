import { SwitchyardError } from '../../errors/switchyard-error.js';

/**
 * Cluster mode (config `clickhouseCluster`): the single-server migrations rewritten for a cluster
 * named in the servers' `<remote_servers>`, so the schema files stay one set for the server, chDB
 * and clusters.
 *
 * For each `CREATE TABLE IF NOT EXISTS db.t (...) ENGINE = XMergeTree(args) ...` this yields two
 * statements, both `ON CLUSTER`:
 * - `db.t_local`: the same columns and keys on `ReplicatedXMergeTree('/clickhouse/tables/{shard}/db/t_local',
 *   '{replica}', args)` (the engine-argument syntax 18.16 takes with PARTITION BY / ORDER BY clauses;
 *   `{shard}` and `{replica}` are each server's `<macros>`). Replicas share inserted blocks through
 *   ZooKeeper and drop a block whose checksum they already have (insert deduplication).
 * - `db.t`: `Distributed(cluster, db, t_local, cityHash64(<ORDER BY columns>))` over it, under the
 *   table's own name, so every read and insert of the store goes through it unchanged. Sharding by
 *   the sorting key sends a re-sent row to the shard that holds its first copy, where
 *   ReplacingMergeTree (read with FINAL) collapses it.
 * `CREATE DATABASE IF NOT EXISTS db` gains `ON CLUSTER`. Anything else is refused: a statement
 * without a known cluster form must get one here rather than run on one server only.
 *
 * Input is bound SQL (after `bindSql`: the database is a back-quoted identifier); output is bound SQL.
 * Runs on ClickHouse 18.16 and later (chDB never uses it).
 */
export function clusterMigrationStatements(statement: string, cluster: string): string[] {
  if (!identifierPattern.test(cluster)) {
    throw new SwitchyardError('SY_CONFIG_INVALID', {
      message: 'The ClickHouse cluster name must match [A-Za-z_][A-Za-z0-9_]*',
      details: { option: 'clickhouseCluster' },
    });
  }
  const onCluster = `ON CLUSTER ${cluster}`;
  const database = createDatabasePattern.exec(statement);
  if (database !== null) return [`${database[1]} ${onCluster}${database[2]}`];

  const table = createTablePattern.exec(statement);
  if (table === null) throw unsupported(statement, 'only CREATE DATABASE and CREATE TABLE ... ENGINE = *MergeTree(...) have a cluster form');
  const [, head = '', quotedDb = '', name = '', columns = '', engine = '', args = '', clauses = ''] = table;
  const db = quotedDb.replaceAll('`', '');
  const orderBy = orderByPattern.exec(clauses)?.[1];
  if (orderBy === undefined) throw unsupported(statement, 'a cluster table needs ORDER BY (its columns shard the rows)');
  const local = `${name}_local`;
  const replicaArgs = [`'/clickhouse/tables/{shard}/${db}/${local}'`, `'{replica}'`, ...(args.trim() === '' ? [] : [args.trim()])];
  const shardingKey = `cityHash64(${orderBy.replace(/^\((.*)\)$/s, '$1').trim()})`;
  return [
    `${head}${quotedDb}.${local} ${onCluster}${columns}ENGINE = Replicated${engine}(${replicaArgs.join(', ')})${clauses}`,
    `${head}${quotedDb}.${name} ${onCluster} AS ${quotedDb}.${local}\nENGINE = Distributed(${cluster}, ${quotedDb}, ${local}, ${shardingKey})`,
  ];
}

/** The replicated table behind a Distributed table of the same base name (see above). */
export function clusterLocalTable(table: string): string {
  return `${table}_local`;
}

const identifierPattern = /^[A-Za-z_][A-Za-z0-9_]*$/;
const createDatabasePattern = /^(CREATE\s+DATABASE\s+IF\s+NOT\s+EXISTS\s+`?[A-Za-z_][A-Za-z0-9_]*`?)(\s*)$/i;
// head, database (maybe back-quoted), table, column list up to ENGINE, engine, its arguments, the clauses after it.
const createTablePattern =
  /^(CREATE\s+TABLE\s+IF\s+NOT\s+EXISTS\s+)(`?[A-Za-z_][A-Za-z0-9_]*`?)\.([A-Za-z_][A-Za-z0-9_]*)(\s*\([\s\S]*\)\s*)ENGINE\s*=\s*([A-Za-z]*MergeTree)\(([^)]*)\)([\s\S]*)$/;
const orderByPattern = /\bORDER\s+BY\s+(\([^)]*\)|[A-Za-z_][A-Za-z0-9_]*)/i;

function unsupported(statement: string, reason: string): SwitchyardError {
  return new SwitchyardError('SY_INTERNAL', {
    message: `ClickHouse migration statement has no cluster form: ${reason}`,
    details: { statement: statement.slice(0, 200) },
  });
}
