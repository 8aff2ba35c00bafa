import type { GsmOptionRow } from '../../generated/schema-types.js';
import { unifiedMessageOf } from './gsm-classes.js';
import type { GsmMap } from './default-gsm-map.js';

/**
 * The rows of GET /gsm/options (decision-engine's GsmOptionRow): every rule of a status map, its
 * optional fields left out where the row has none, as decision-engine serialises them.
 */
export function gsmOptionRows(map: GsmMap): GsmOptionRow[] {
  return map.rows.map((row) => {
    const unifiedMessage = unifiedMessageOf(row.unifiedCode);
    return {
      connector: row.connector,
      flow: row.flow,
      subFlow: row.subFlow,
      errorCode: row.errorCode,
      errorMessage: row.errorMessage,
      ...(row.errorCategory === null ? {} : { errorCategory: row.errorCategory }),
      ...(row.unifiedCode === null ? {} : { unifiedCode: row.unifiedCode }),
      ...(unifiedMessage === null ? {} : { unifiedMessage }),
      decision: row.decision,
    };
  });
}
