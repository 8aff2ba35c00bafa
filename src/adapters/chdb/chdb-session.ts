import { Session } from 'chdb';

/**
 * A chDB session on the analytics folder, set up as every session of it is (the writing thread's
 * and its reader's): chDB already answers 64-bit integers as JSON numbers; the setting is made
 * anyway so that chDB and a ClickHouse server answer alike.
 */
export function openAnalyticsSession(path: string): Session {
  const session = new Session(path);
  session.query('SET output_format_json_quote_64bit_integers = 0');
  return session;
}
