import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';

/**
 * Connections to providers are kept open between calls; one pool per process (and scheme), so
 * the many clients a process makes (chat wire, native pass-through) share them.
 */
export const pooledAgents = {
  'http:': new HttpAgent({ keepAlive: true, maxSockets: 256 }),
  'https:': new HttpsAgent({ keepAlive: true, maxSockets: 256 }),
} as const;
