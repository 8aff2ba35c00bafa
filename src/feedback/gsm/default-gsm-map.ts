import shipped from './default-gsm-rules.json' with { type: 'json' };
import { type GsmErrorQuery, type GsmMatch, issuerLookupKey } from './gsm-error.js';
import { unifiedMessageOf } from './gsm-classes.js';

/** One row of the shipped map (default-gsm-rules.json, one array per row in `columns` order). */
export interface GsmMapRow {
  readonly connector: string;
  readonly flow: string;
  readonly subFlow: string;
  readonly errorCode: string;
  readonly errorMessage: string;
  readonly decision: 'retry' | 'do_default';
  readonly unifiedCode: string | null;
  readonly stepUpPossible: boolean;
  readonly errorCategory: string | null;
}

type StoredRow = [string, string, string, string, string, string, string | null, boolean, string | null];

/** The flow decision-engine's own lookups use; preferred when a caller sends no flow and rows differ. */
const canonicalFlow = { flow: 'Payment', subFlow: 'Authorize' };

const issuerKeyStart = 'Network:';

const joinKey = (...parts: string[]): string => parts.join('\u0000');

/**
 * The shipped gateway status map, indexed for the three lookups {@link lookupDefaultMap} tries.
 * Built once on first use: the rows are immutable data.
 */
export interface GsmMap {
  readonly rows: readonly GsmMapRow[];
  /** connector, flow, sub-flow, code, message: decision-engine's exact key. */
  readonly exact: ReadonlyMap<string, GsmMapRow>;
  /** connector, code, message: any flow. */
  readonly byCodeAndMessage: ReadonlyMap<string, readonly GsmMapRow[]>;
  /** connector, code: any flow and message. */
  readonly byCode: ReadonlyMap<string, readonly GsmMapRow[]>;
}

export function buildGsmMap(stored: readonly StoredRow[]): GsmMap {
  const rows = stored.map(
    ([connector, flow, subFlow, errorCode, errorMessage, decision, unifiedCode, stepUpPossible, errorCategory]): GsmMapRow => ({
      connector,
      flow,
      subFlow,
      errorCode,
      errorMessage,
      decision: decision === 'retry' ? 'retry' : 'do_default',
      unifiedCode,
      stepUpPossible,
      errorCategory,
    }),
  );
  const exact = new Map<string, GsmMapRow>();
  const byCodeAndMessage = new Map<string, GsmMapRow[]>();
  const byCode = new Map<string, GsmMapRow[]>();
  const push = (index: Map<string, GsmMapRow[]>, key: string, row: GsmMapRow) => {
    const list = index.get(key);
    if (list === undefined) index.set(key, [row]);
    else list.push(row);
  };
  for (const row of rows) {
    const connector = row.connector.toLowerCase();
    // Issuer rows are keyed case-insensitively: clients spell networks `VISA` as often as `Visa`.
    const issuer = row.errorCode.startsWith(issuerKeyStart);
    const code = issuer ? row.errorCode.toLowerCase() : row.errorCode;
    const message = issuer ? row.errorMessage.toLowerCase() : row.errorMessage.trim();
    exact.set(joinKey(connector, row.flow, row.subFlow, code, message), row);
    push(byCodeAndMessage, joinKey(connector, code, message), row);
    push(byCode, joinKey(connector, code), row);
  }
  return { rows, exact, byCodeAndMessage, byCode };
}

let shippedMap: GsmMap | undefined;

/** The map shipped with Switchyard (src/feedback/gsm/default-gsm-rules.json). */
export function defaultGsmMap(): GsmMap {
  shippedMap ??= buildGsmMap(shipped.rules as unknown as StoredRow[]);
  return shippedMap;
}

/**
 * Looks a PSP error up in a status map: the issuer code first (when a card network and an issuer
 * code are given), then the PSP's code and message, as decision-engine does. Where decision-engine
 * needs the exact flow and sub-flow, a caller that sends none (or another spelling) still finds the
 * row by connector, code and message; where that names rows of different classes, the canonical
 * Payment/Authorize row wins. A code alone (no message) finds a row only when every row with that
 * code agrees on the class. Connectors compare case-insensitively.
 */
export function lookupDefaultMap(map: GsmMap, query: GsmErrorQuery): GsmMatch | undefined {
  const connector = query.connector.trim().toLowerCase();
  const flow = query.flow ?? '';
  const subFlow = query.subFlow ?? '';
  if (nonEmpty(query.cardNetwork) && nonEmpty(query.issuerErrorCode)) {
    const key = issuerLookupKey(query.cardNetwork.trim(), query.issuerErrorCode.trim()).toLowerCase();
    const row = map.exact.get(joinKey(connector, flow, subFlow, key, key)) ?? pick(map.byCodeAndMessage.get(joinKey(connector, key, key)));
    if (row !== undefined) return matchOf(row);
  }
  const code = query.errorCode ?? '';
  const message = (query.errorMessage ?? '').trim();
  const row = map.exact.get(joinKey(connector, flow, subFlow, code, message)) ?? pick(map.byCodeAndMessage.get(joinKey(connector, code, message)));
  if (row !== undefined) return matchOf(row);
  if (!nonEmpty(query.errorCode) || nonEmpty(query.errorMessage)) return undefined;
  return unanimous(map.byCode.get(joinKey(connector, code)));
}

function nonEmpty(value: string | null | undefined): value is string {
  return value !== null && value !== undefined && value.trim() !== '';
}

function pick(rows: readonly GsmMapRow[] | undefined): GsmMapRow | undefined {
  if (rows === undefined || rows.length === 0) return undefined;
  return rows.find((row) => row.flow === canonicalFlow.flow && row.subFlow === canonicalFlow.subFlow) ?? rows[0];
}

function unanimous(rows: readonly GsmMapRow[] | undefined): GsmMatch | undefined {
  const first = rows?.[0];
  if (rows === undefined || first === undefined) return undefined;
  const agree = rows.every((row) => row.unifiedCode === first.unifiedCode && row.stepUpPossible === first.stepUpPossible);
  return agree ? matchOf(pick(rows) ?? first) : undefined;
}

function matchOf(row: GsmMapRow): GsmMatch {
  return {
    source: 'default_map',
    decision: row.decision,
    unifiedCode: row.unifiedCode,
    unifiedMessage: unifiedMessageOf(row.unifiedCode),
    stepUpPossible: row.stepUpPossible,
    errorCategory: row.errorCategory,
  };
}
