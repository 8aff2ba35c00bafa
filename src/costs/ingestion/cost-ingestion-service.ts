import type { CostRowStore } from '../../ports/analytics/cost-rows.js';
import type { CostIngestionJob, CostIngestionJobs } from '../../ports/cost-ingestion-jobs.js';
import type { ReportSpool } from '../../ports/report-spool.js';
import type { ConfigStore } from '../../ports/state/config-store.js';
import type { CostIngestionRecord } from '../../ports/state/cost-ingestions.js';
import type { ConnectorFee, CostModel } from '../../ports/state/cost-model.js';
import type { Logger } from '../../logging/logger.js';
import type { Clock } from '../../time/clock.js';
import { buildCostModel, clusterKey } from './build-cost-model.js';
import { settlementFormats } from './settlement-formats.js';
import { settlementRowBatches, validateReport } from './validate-report.js';

/**
 * Default cap of one uploaded report: 512 MiB. Far above a month of a large merchant's Adyen report
 * per account (hundreds of MB), below what fills a small volume; the peer caps at 8 GiB.
 */
export const defaultMaxReportBytes = 512 * 1024 * 1024;
/** History records kept per merchant (the oldest fall off, their clusters with them); the listing shows the newest 50. */
export const keptIngestions = 200;
export const listedIngestions = 50;
/** Rows per ClickHouse insert. */
const insertBatchRows = 5_000;

export interface CostIngestionDeps {
  readonly configs: ConfigStore;
  readonly rows: CostRowStore;
  readonly spool: ReportSpool;
  readonly jobs: CostIngestionJobs;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly newId?: () => string;
  readonly maxReportBytes?: number;
}

export type UploadOutcome =
  | { readonly kind: 'accepted'; readonly id: string; readonly status: CostIngestionRecord['status']; readonly existing: boolean }
  | { readonly kind: 'unknown-connector' }
  | { readonly kind: 'too-large'; readonly maxBytes: number }
  | { readonly kind: 'empty' };

export interface UploadRequest {
  readonly merchantId: string;
  readonly connector: string;
  readonly account: string;
  readonly body: AsyncIterable<Uint8Array>;
}

const sourceKey = (connector: string, account: string) => `${connector}|${account}`;

/**
 * Cost ingestion: settlement-report uploads (spooled, validated whole, rows to ClickHouse, fitted
 * into the merchant's served `costModel`), their history, and the column mappings they are read with.
 *
 * Writes of a merchant's documents (history, cost model) are serialised per merchant in this
 * process (see src/ports/state/cost-ingestions.ts for why that is enough).
 */
export class CostIngestionService {
  readonly #deps: CostIngestionDeps;
  readonly #tails = new Map<string, Promise<unknown>>();
  readonly #newId: () => string;
  readonly maxReportBytes: number;

  constructor(deps: CostIngestionDeps) {
    this.#deps = deps;
    this.#newId = deps.newId ?? (() => `ing_${globalThis.crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`);
    this.maxReportBytes = deps.maxReportBytes ?? defaultMaxReportBytes;
  }

  /** Runs `work` after every earlier write of this merchant's documents has finished. */
  #serial<T>(merchantId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(merchantId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const tail = next.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(merchantId, tail);
    void tail.then(() => {
      if (this.#tails.get(merchantId) === tail) this.#tails.delete(merchantId);
    });
    return next;
  }

  async history(merchantId: string): Promise<readonly CostIngestionRecord[]> {
    return (await this.#deps.configs.get(merchantId, 'costIngestions')) ?? [];
  }

  async #putHistory(merchantId: string, records: readonly CostIngestionRecord[]): Promise<void> {
    await this.#deps.configs.put(merchantId, 'costIngestions', records.slice(0, keptIngestions), 'upsert');
  }

  async #update(merchantId: string, id: string, change: (record: CostIngestionRecord) => CostIngestionRecord): Promise<CostIngestionRecord | undefined> {
    const records = await this.history(merchantId);
    const record = records.find((r) => r.id === id);
    if (record === undefined) return undefined;
    const updated = change(record);
    await this.#putHistory(
      merchantId,
      records.map((r) => (r.id === id ? updated : r)),
    );
    return updated;
  }

  /**
   * Spools the body (hashing it, refusing past the cap), then either answers the ingestion that
   * already holds these bytes for this (connector, account), or records a new one as `processing`
   * and schedules it. A failed ingestion is not reused: the same file after a mapping fix is re-read.
   */
  async upload(request: UploadRequest): Promise<UploadOutcome> {
    if (!settlementFormats.has(request.connector)) return { kind: 'unknown-connector' };
    const written = await this.#deps.spool.write(request.body, this.maxReportBytes);
    if (written.kind === 'too-large') return { kind: 'too-large', maxBytes: this.maxReportBytes };
    if (written.kind === 'empty') return { kind: 'empty' };
    const { merchantId, connector, account } = request;
    const outcome = await this.#serial(merchantId, async () => {
      const records = await this.history(merchantId);
      const same = records.find((r) => r.connector === connector && r.account === account && r.contentSha256 === written.sha256 && r.status !== 'failed');
      if (same !== undefined) return { kind: 'accepted', id: same.id, status: same.status, existing: true } as const;
      const record: CostIngestionRecord = {
        id: this.#newId(),
        connector,
        account,
        source: 'manual',
        status: 'processing',
        contentSha256: written.sha256,
        bytes: written.bytes,
        stagedRows: 0,
        reportDate: null,
        periodStart: null,
        periodEnd: null,
        currencies: [],
        countries: [],
        totalGross: 0,
        totalClusters: 0,
        goodClusters: 0,
        lastError: null,
        createdAt: this.#deps.clock.now(),
        clusterStats: [],
      };
      await this.#putHistory(merchantId, [record, ...records]);
      return { kind: 'accepted', id: record.id, status: record.status, existing: false } as const;
    });
    if (outcome.existing) await this.#deps.spool.remove(written.handle);
    else this.#deps.jobs.submit({ merchantId, ingestionId: outcome.id, spoolHandle: written.handle });
    return outcome;
  }

  /** The background part of an upload (CostIngestionJobs calls it): validate, store rows, fit, record. */
  async process(job: CostIngestionJob): Promise<void> {
    const { merchantId, ingestionId, spoolHandle } = job;
    const log = this.#deps.logger.child({ merchantId, ingestionId });
    try {
      const record = (await this.history(merchantId)).find((r) => r.id === ingestionId);
      if (record?.status !== 'processing') return;
      const format = settlementFormats.get(record.connector)!;
      const mapping = await this.mapping(merchantId, record.connector, record.account);
      const check = await validateReport(format, mapping, this.#deps.spool.read(spoolHandle));
      if (!check.ok) {
        log.info({ error: check.error }, 'cost ingestion refused');
        await this.#finish(merchantId, ingestionId, (r) => ({ ...r, status: 'failed', lastError: check.error }));
        return;
      }
      const stored = await this.#storeRows(job, record, format.connector, mapping);
      if (stored !== undefined) {
        await this.#finish(merchantId, ingestionId, (r) => ({ ...r, status: 'failed', lastError: stored }));
        return;
      }
      const { summary } = check;
      const reportDate = new Date(this.#deps.clock.now()).toISOString().slice(0, 10);
      await this.#finish(merchantId, ingestionId, (r) => ({
        ...r,
        status: 'completed',
        stagedRows: summary.feeRows,
        reportDate,
        periodStart: summary.periodStart,
        periodEnd: summary.periodEnd,
        currencies: summary.currencies,
        countries: summary.countries,
        totalGross: summary.totalGross,
        clusterStats: summary.clusterStats,
      }));
      log.info({ rows: summary.feeRows }, 'cost ingestion completed');
    } finally {
      await this.#deps.spool.remove(spoolHandle);
    }
  }

  /** Second pass: the rows to ClickHouse. On failure the rows written so far are tombstoned; returns the error text. */
  async #storeRows(
    job: CostIngestionJob,
    record: CostIngestionRecord,
    connector: string,
    mapping: Readonly<Record<string, string>>,
  ): Promise<string | undefined> {
    const format = settlementFormats.get(connector)!;
    const context = { merchantId: job.merchantId, ingestionId: job.ingestionId, account: record.account, ingestedAtMs: record.createdAt };
    try {
      for await (const batch of settlementRowBatches(format, mapping, this.#deps.spool.read(job.spoolHandle), context, insertBatchRows))
        await this.#deps.rows.insertRows(batch);
      return undefined;
    } catch (error) {
      this.#deps.logger.error({ err: error, merchantId: job.merchantId, ingestionId: job.ingestionId }, 'cost rows could not be stored');
      await this.#deps.rows.deleteIngestion(job.merchantId, job.ingestionId).catch((cleanup: unknown) => {
        this.#deps.logger.error({ err: cleanup, ingestionId: job.ingestionId }, 'partial cost rows could not be tombstoned');
      });
      return 'the analytics store refused the rows; nothing imported, upload again';
    }
  }

  /** Records an ingestion's end and refits the served cost model from the history, in one serial step. */
  async #finish(merchantId: string, id: string, change: (record: CostIngestionRecord) => CostIngestionRecord): Promise<void> {
    await this.#serial(merchantId, async () => {
      const updated = await this.#update(merchantId, id, change);
      if (updated?.status === 'completed') {
        const model = await this.#refit(merchantId);
        const fitted = model.clusters.filter((c) => updated.clusterStats.some((s) => c.key === clusterKey(s.dimensions)));
        await this.#update(merchantId, id, (r) => ({ ...r, totalClusters: fitted.length, goodClusters: fitted.filter((c) => c.quality === 'GOOD').length }));
      }
    });
  }

  async #refit(merchantId: string) {
    const model = buildCostModel(await this.history(merchantId), await this.#deps.configs.get(merchantId, 'costModel'), this.#deps.clock.now());
    await this.#deps.configs.put(merchantId, 'costModel', model, 'upsert');
    return model;
  }

  /**
   * Removes an ingestion: its rows tombstoned in ClickHouse, its record dropped, the cost model
   * refitted from what remains. A `processing` one cannot be removed (its job still writes).
   */
  async remove(merchantId: string, id: string): Promise<'deleted' | 'missing' | 'processing'> {
    return this.#serial(merchantId, async () => {
      const records = await this.history(merchantId);
      const record = records.find((r) => r.id === id);
      if (record === undefined) return 'missing';
      if (record.status === 'processing') return 'processing';
      if (record.status === 'completed') await this.#deps.rows.deleteIngestion(merchantId, id);
      await this.#putHistory(
        merchantId,
        records.filter((r) => r.id !== id),
      );
      await this.#refit(merchantId);
      return 'deleted';
    });
  }

  async mapping(merchantId: string, connector: string, account: string): Promise<Readonly<Record<string, string>>> {
    return (await this.#deps.configs.get(merchantId, 'costColumnMappings'))?.[sourceKey(connector, account)] ?? {};
  }

  /** Saves (an empty one clears) the mapping later uploads of this (connector, account) are read with. */
  async setMapping(merchantId: string, connector: string, account: string, columns: Readonly<Record<string, string>>): Promise<void> {
    await this.#serial(merchantId, async () => {
      const all = { ...((await this.#deps.configs.get(merchantId, 'costColumnMappings')) ?? {}) };
      if (Object.keys(columns).length === 0) delete all[sourceKey(connector, account)];
      else all[sourceKey(connector, account)] = columns;
      await this.#deps.configs.put(merchantId, 'costColumnMappings', all, 'upsert');
    });
  }

  /** Sets or clears a connector's manual fee (every account of it); the served model changes at once. */
  async setFeeOverride(merchantId: string, connector: string, fee: { pctBps: number; fixed: number } | undefined): Promise<void> {
    await this.#serial(merchantId, async () => {
      const history = await this.history(merchantId);
      const previous = await this.#deps.configs.get(merchantId, 'costModel');
      const kept = (previous?.connectors ?? []).filter((c) => c.connector !== connector);
      const seeded: ConnectorFee[] = [...kept];
      if (fee !== undefined) {
        const override = { ...fee, updatedAt: this.#deps.clock.now() };
        const accounts = new Set([...history, ...(previous?.connectors ?? [])].filter((r) => r.connector === connector).map((r) => r.account));
        for (const account of accounts.size > 0 ? accounts : ['']) seeded.push({ connector, account, goodGross: 0, override });
      }
      const base: CostModel = previous ?? { connectors: [], clusters: [], reportDate: null, updatedAt: 0 };
      await this.#deps.configs.put(merchantId, 'costModel', buildCostModel(history, { ...base, connectors: seeded }, this.#deps.clock.now()), 'upsert');
    });
  }
}
