import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent, fetch as undiciFetch } from 'undici';
import { checkEndpointUrl, checkResolvedAddresses, type EndpointPolicy } from '../../generation/mcp/endpoint-policy.js';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for sockets that resolves the name, refuses it unless every address passes the
 * policy, and hands the socket exactly the addresses it checked: the connection is pinned to
 * checked addresses, so a DNS answer that changes between the check and the connect (rebinding)
 * cannot lead it anywhere else.
 */
export function checkedLookup(policy: EndpointPolicy) {
  return (hostname: string, options: { family?: number | string; all?: boolean }, callback: LookupCallback): void => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : typeof options.family === 'number' ? options.family : 0;
    dnsLookup(hostname, { all: true, family }, (error, addresses) => {
      if (error) return callback(error, []);
      try {
        checkResolvedAddresses(
          hostname,
          addresses.map((entry) => entry.address),
          policy,
        );
      } catch (refusal) {
        return callback(refusal as NodeJS.ErrnoException, []);
      }
      if (options.all === true) return callback(null, addresses);
      const first = addresses[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
}

/** The refusal of our own check inside a fetch failure's causes, if that is what failed it. */
function refusalIn(error: unknown): Error | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (current.message.startsWith('MCP endpoint refused')) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The fetch of a merchant's MCP servers: the URL is checked (scheme, IP-literal hosts) on every
 * request, names are resolved and checked at connect time by `checkedLookup` (the socket connects
 * to the checked address), and redirects are refused (a redirect could name any host).
 */
export function guardedFetch(policy: EndpointPolicy): typeof globalThis.fetch {
  const dispatcher = new Agent({ connect: { lookup: checkedLookup(policy) as never } });
  return (async (input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    checkEndpointUrl(url, policy);
    try {
      return await undiciFetch(url, { ...(init as Parameters<typeof undiciFetch>[1]), redirect: 'error', dispatcher });
    } catch (error) {
      throw refusalIn(error) ?? error;
    }
  }) as unknown as typeof globalThis.fetch;
}

/** Every address a name resolves to (the system resolver, as sockets use it). */
export async function resolveHostAddresses(hostname: string): Promise<readonly string[]> {
  const { lookup } = await import('node:dns/promises');
  return (await lookup(hostname, { all: true })).map((entry) => entry.address);
}
