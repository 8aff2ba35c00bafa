/**
 * Retention by dropping daily partitions (`PARTITION BY toYYYYMMDD(created_at)`, UTC days): cheap
 * and final on both engines, unlike row deletes or TTL (whose timing differs between them).
 *
 * Inputs:
 *   partitionsSql:     {database:String} {tables:Array(String)}
 *   dropPartitionSql:  {database:Identifier} {table:Identifier} {partition:UInt32} (YYYYMMDD)
 * Outputs:
 *   partitionsSql: rows { table: String, partition: String } of active parts
 *   dropPartitionSql: nothing
 */
export const partitionsSql = `SELECT DISTINCT table, partition
FROM system.parts
WHERE database = {database:String} AND has({tables:Array(String)}, table) AND active
ORDER BY table, partition`;

export const dropPartitionSql = 'ALTER TABLE {database:Identifier}.{table:Identifier} DROP PARTITION {partition:UInt32}';
