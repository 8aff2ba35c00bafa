import { logLevel, type logCreator } from 'kafkajs';
import type { Logger } from '../../logging/logger.js';

/**
 * Routes kafkajs's own log lines into our logger under `component: 'kafkajs'`.
 *
 * kafkajs logs every failed connection attempt at ERROR; during an outage that is a line per retry.
 * The adapter logs the outage once at error itself, so kafkajs ERROR and WARN go to warn and
 * everything else to debug. Expect one warn per producer ("Limiting retries for the idempotent
 * producer may invalidate EoS guarantees"): retries are bounded on purpose so a dead broker sends
 * events to the spool within about a second; duplicates are allowed, consumers de-duplicate by id.
 */
export function createKafkaLogCreator(logger: Logger): logCreator {
  const log = logger.child({ component: 'kafkajs' });
  return () => (entry) => {
    const { message, timestamp: _timestamp, ...extra } = entry.log;
    const fields = { namespace: entry.namespace, ...extra };
    if (entry.level === logLevel.ERROR || entry.level === logLevel.WARN) log.warn(fields, message);
    else log.debug(fields, message);
  };
}
