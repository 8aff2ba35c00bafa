/**
 * Retention by dropping daily partitions (`PARTITION BY toYYYYMMDD(created_at)`, UTC days): cheap
 * and final on both engines, unlike row deletes or TTL (whose timing differs between them).
 *
 * Inputs:
 *   partitionsSql:     {database:String} {tables:Array(String)}
 *   dropPartitionSql:  {database:Identifier} {table:Identifier} {partition:UInt32} (YYYYMMDD)
 *   dropPartitionOnClusterSql: the same plus {cluster:Identifier}; table is a replicated `_local` table
 * Outputs:
 *   partitionsSql: rows { table: String, partition: String } of active parts
 *   dropPartitionSql: nothing
 */
export const partitionsSql = `SELECT DISTINCT table, partition
FROM system.parts
WHERE database = {database:String} AND has({tables:Array(String)}, table) AND active
ORDER BY table, partition`;

export const dropPartitionSql = 'ALTER TABLE {database:Identifier}.{table:Identifier} DROP PARTITION {partition:UInt32}';

/** Cluster mode: every shard's replicated table drops the day (replicas follow through ZooKeeper). */
export const dropPartitionOnClusterSql =
  'ALTER TABLE {database:Identifier}.{table:Identifier} ON CLUSTER {cluster:Identifier} DROP PARTITION {partition:UInt32}';
