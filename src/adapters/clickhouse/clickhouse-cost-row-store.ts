import type { CostRowStore, CostSettlementRow } from '../../ports/analytics/cost-rows.js';
import { SwitchyardError } from '../../errors/switchyard-error.js';
import { bindSql } from './bind-sql.js';
import type { ClickHouseExecutor } from './clickhouse-executor.js';
import { encodeTabSeparated, type InsertColumn } from './encode-tab-separated.js';

const table = 'cost_settlement_rows';

/** Written in this order; the DDL is schemas/clickhouse/0008_cost_settlement_rows.sql. */
const columns: readonly InsertColumn[] = [
  { name: 'merchant_id', kind: 'string' },
  { name: 'ingestion_id', kind: 'string' },
  { name: 'line', kind: 'number' },
  { name: 'connector', kind: 'string' },
  { name: 'account', kind: 'string' },
  { name: 'txn_ref', kind: 'string' },
  { name: 'card_network', kind: 'string' },
  { name: 'variant', kind: 'string' },
  { name: 'funding', kind: 'string' },
  { name: 'issuer_country', kind: 'string' },
  { name: 'currency', kind: 'string' },
  { name: 'ic_category', kind: 'string' },
  { name: 'txn_date', kind: 'string' },
  { name: 'gross', kind: 'number' },
  { name: 'total_fee', kind: 'number' },
  { name: 'interchange', kind: 'number' },
  { name: 'scheme_fee', kind: 'number' },
  { name: 'markup', kind: 'number' },
  { name: 'commission', kind: 'number' },
  { name: 'ingested_at', kind: 'secondsOfMs', source: 'ingested_at_ms' },
  { name: 'ingested_at_ms', kind: 'number' },
  { name: 'version', kind: 'number' },
  { name: 'deleted', kind: 'number' },
];
const columnList = columns.map((column) => column.name);

/**
 * Tombstones of one ingestion: its live rows again, version 2, deleted = 1. The two constants carry
 * no alias on purpose: ClickHouse lets a SELECT alias shadow a column in WHERE, so `… AS deleted`
 * would turn `deleted = 0` into `1 = 0` and select nothing. INSERT … SELECT maps by position.
 * Inputs: {database:Identifier} {merchantId:String} {ingestionId:String}. Outputs: nothing.
 */
const tombstoneSql = `INSERT INTO {database:Identifier}.${table} (${columnList.join(', ')})
SELECT ${columnList.filter((name) => name !== 'version' && name !== 'deleted').join(', ')}, toUInt64(2), toUInt8(1)
FROM {database:Identifier}.${table} FINAL
WHERE merchant_id = {merchantId:String} AND ingestion_id = {ingestionId:String} AND deleted = 0`;

/** Inputs: {database:Identifier} {merchantId:String} {ingestionId:String}. Outputs: one row { n: UInt64 }. */
const countSql = `SELECT count() AS n FROM {database:Identifier}.${table} FINAL
WHERE merchant_id = {merchantId:String} AND ingestion_id = {ingestionId:String} AND deleted = 0`;

function toRecord(row: CostSettlementRow): Record<string, string | number> {
  return {
    merchant_id: row.merchantId,
    ingestion_id: row.ingestionId,
    line: row.line,
    connector: row.connector,
    account: row.account,
    txn_ref: row.txnRef,
    card_network: row.cardNetwork,
    variant: row.variant,
    funding: row.funding,
    issuer_country: row.issuerCountry,
    currency: row.currency,
    ic_category: row.icCategory,
    txn_date: row.txnDate,
    gross: row.gross,
    total_fee: row.totalFee,
    interchange: row.interchange,
    scheme_fee: row.schemeFee,
    markup: row.markup,
    commission: row.commission,
    ingested_at_ms: row.ingestedAtMs,
    version: 1,
    deleted: 0,
  };
}

/**
 * Cost rows over any ClickHouse executor (server or chDB): the same SQL on both.
 * The table is created by the analytics store's migrate() (migration 0008).
 */
export function createClickHouseCostRowStore(
  executor: ClickHouseExecutor,
  options: { readonly database: string; readonly ownsExecutor?: boolean },
): CostRowStore {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(options.database)) {
    throw new SwitchyardError('SY_CONFIG_INVALID', { message: 'clickhouseDatabase must be a plain identifier', details: { database: options.database } });
  }
  const database = options.database;
  return {
    async insertRows(rows) {
      if (rows.length === 0) return;
      await executor.insertTabSeparated(`${database}.${table}`, columnList, encodeTabSeparated(columns, rows.map(toRecord)));
    },
    async deleteIngestion(merchantId, ingestionId) {
      await executor.command(bindSql(tombstoneSql, { database, merchantId, ingestionId }));
    },
    async countRows(merchantId, ingestionId) {
      const [row] = await executor.query<{ n: number | string }>(bindSql(countSql, { database, merchantId, ingestionId }));
      return Number(row?.n ?? 0);
    },
    async close() {
      if (options.ownsExecutor === true) await executor.close();
    },
  };
}
