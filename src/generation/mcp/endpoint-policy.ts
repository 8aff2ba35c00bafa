import { InvalidRequestError } from '../errors/provider-errors.js';
import { cidrContains, classifyAddress, parseAddress, parseCidr, type AddressClass, type Cidr } from './endpoint-address.js';

/**
 * Which addresses a merchant-registered MCP endpoint may reach (SSRF guard): only public ones,
 * unless the operator allows more with `MCP_ALLOW_PRIVATE_ENDPOINTS` (`true` = any address, or a
 * comma-separated list of CIDR blocks, e.g. `127.0.0.1/32,10.20.0.0/16`).
 */
export interface EndpointPolicy {
  readonly allowAll: boolean;
  readonly allowed: readonly Cidr[];
}

export const publicOnly: EndpointPolicy = { allowAll: false, allowed: [] };

/** Parses the operator's setting; throws naming the bad entry (start-up refuses a bad value). */
export function parseEndpointPolicy(value: string | undefined): EndpointPolicy {
  const text = (value ?? '').trim();
  if (text === '' || text === 'false') return publicOnly;
  if (text === 'true' || text === '*') return { allowAll: true, allowed: [] };
  const allowed = text.split(',').map((entry) => {
    const cidr = parseCidr(entry);
    if (cidr === undefined) throw new Error(`MCP_ALLOW_PRIVATE_ENDPOINTS: "${entry.trim()}" is not true, false or a CIDR block`);
    return cidr;
  });
  return { allowAll: false, allowed };
}

/** Why an address may not be reached, or undefined when it may. */
export function refusalOf(address: string, policy: EndpointPolicy): AddressClass | 'not-an-address' | undefined {
  if (policy.allowAll) return undefined;
  const kind = classifyAddress(address);
  if (kind === undefined) return 'not-an-address';
  if (kind === 'public') return undefined;
  return policy.allowed.some((cidr) => cidrContains(cidr, address)) ? undefined : kind;
}

const reasons: Readonly<Record<string, string>> = {
  loopback: 'a loopback address',
  private: 'a private (RFC 1918) address',
  'link-local': 'a link-local address',
  metadata: 'the cloud metadata address',
  unspecified: 'the unspecified address (0.0.0.0 / ::)',
  cgnat: 'a carrier-grade NAT (100.64.0.0/10) address',
  'unique-local': 'a unique-local IPv6 (fc00::/7) address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
  'not-an-address': 'not an IP address',
};

/** The 400 a refused endpoint answers: names the host, the address and why. */
export function endpointRefused(host: string, address: string, why: string): InvalidRequestError {
  const shown = host === address ? address : `${host} (${address})`;
  return new InvalidRequestError(
    `MCP endpoint refused: ${shown} is ${reasons[why] ?? why}; merchant MCP servers must be on public addresses (the operator may allow more with MCP_ALLOW_PRIVATE_ENDPOINTS)`,
    'mcp',
    'url',
  );
}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * Checks an endpoint URL before any DNS: http(s) only, no credentials in it, and an IP-literal host
 * (any spelling WHATWG URL accepts: `2130706433`, `0177.0.0.1`, `[::ffff:7f00:1]`) must pass the
 * policy; `localhost` names are loopback. Returns the host to resolve when it is a name.
 */
export function checkEndpointUrl(raw: string, policy: EndpointPolicy): { readonly url: URL; readonly hostname?: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidRequestError(`MCP endpoint refused: ${JSON.stringify(raw)} is not a valid URL`, 'mcp', 'url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidRequestError(`MCP endpoint refused: scheme ${url.protocol} is not allowed (use http: or https:)`, 'mcp', 'url');
  }
  if (url.username !== '' || url.password !== '') {
    throw new InvalidRequestError('MCP endpoint refused: credentials in the URL are not allowed (send them in headers)', 'mcp', 'url');
  }
  const host = hostOf(url);
  if (parseAddress(host) !== undefined) {
    const why = refusalOf(host, policy);
    if (why !== undefined) throw endpointRefused(host, host, why);
    return { url };
  }
  const lower = host.toLowerCase().replace(/\.$/, '');
  if (!policy.allowAll && (lower === 'localhost' || lower.endsWith('.localhost'))) {
    if (!policy.allowed.some((cidr) => cidrContains(cidr, '127.0.0.1') || cidrContains(cidr, '::1'))) throw endpointRefused(host, host, 'loopback');
  }
  return { url, hostname: host };
}

/** Every address a name resolved to must pass (one bad answer refuses the name: DNS rebinding picks any). */
export function checkResolvedAddresses(host: string, addresses: readonly string[], policy: EndpointPolicy): void {
  if (addresses.length === 0) throw new InvalidRequestError(`MCP endpoint refused: ${host} does not resolve`, 'mcp', 'url');
  for (const address of addresses) {
    const why = refusalOf(address, policy);
    if (why !== undefined) throw endpointRefused(host, address, why);
  }
}

/** Resolves a host name to every address (A and AAAA); supplied by the composition root. */
export type ResolveHost = (hostname: string) => Promise<readonly string[]>;

/** The registration check: the URL, then (for a name) every address it resolves to now. */
export async function checkEndpoint(raw: string, policy: EndpointPolicy, resolveHost: ResolveHost | undefined): Promise<void> {
  const { hostname } = checkEndpointUrl(raw, policy);
  if (hostname === undefined || policy.allowAll) return;
  if (resolveHost === undefined) throw new InvalidRequestError('MCP endpoint refused: no resolver to check the host with', 'mcp', 'url');
  let addresses: readonly string[];
  try {
    addresses = await resolveHost(hostname);
  } catch (error) {
    throw new InvalidRequestError(
      `MCP endpoint refused: ${hostname} does not resolve (${error instanceof Error ? error.message : String(error)})`,
      'mcp',
      'url',
    );
  }
  checkResolvedAddresses(hostname, addresses, policy);
}
