import type { Config } from '../src/config/load-config.js';

/**
 * fastify's `trustProxy` from the TRUST_PROXY setting: `false` (the default: the client is the TCP
 * peer), `true` (believe every X-Forwarded-For hop), or a comma-separated list of the proxies'
 * addresses, CIDR ranges or proxy-addr names (`loopback`, `uniquelocal`, …).
 *
 * @remarks The environment only ever gives strings, so "true" and "false" are read here; anything
 * else is passed on as fastify's address list. `true` is only safe when every request reaches the
 * service through the proxy: otherwise a client picks its own address, and with it escapes the
 * per-address login and admin-secret throttles. A list names the proxies instead. Hop counts are
 * left out on purpose: fastify 5 trusts no hop for a number (it cannot check the peer).
 */
export function trustProxyOption(value: Config['trustProxy']): boolean | string {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  if (trimmed === 'true') return true;
  if (trimmed === 'false') return false;
  return trimmed;
}
