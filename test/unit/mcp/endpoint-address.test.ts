import { describe, expect, it } from 'vitest';
import { cidrContains, classifyAddress, parseCidr } from '../../../src/generation/mcp/endpoint-address.js';
import { checkEndpointUrl, checkResolvedAddresses, parseEndpointPolicy, publicOnly } from '../../../src/generation/mcp/endpoint-policy.js';

/** The host of a URL as WHATWG URL normalises it, brackets removed: what the guard classifies. */
const hostOf = (url: string) => new URL(url).hostname.replace(/^\[|\]$/g, '');

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['169.254.169.254', 'metadata'],
    ['169.254.1.1', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['93.184.215.14', 'public'],
  ])('IPv4 %s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it.each([
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fd00:ec2::254', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['2606:4700:4700::1111', 'public'],
    ['2a00:1450:4001:82b::200e', 'public'],
  ])('IPv6 %s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it.each([
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['::127.0.0.1', 'loopback'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:0808:0808::', 'public'],
  ])('IPv4 inside IPv6 %s is classified as its IPv4 address: %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('answers undefined for names and malformed text', () => {
    for (const text of ['example.com', 'localhost', '1.2.3', '1.2.3.4.5', '256.1.1.1', '01.02.03.04x', ':::', '1::2::3', 'g::1', '']) {
      expect(classifyAddress(text), text).toBeUndefined();
    }
  });

  it('classifies the other spellings of loopback and metadata once WHATWG URL has normalised them', () => {
    expect(hostOf('http://2130706433/')).toBe('127.0.0.1');
    expect(classifyAddress(hostOf('http://2130706433/'))).toBe('loopback');
    expect(classifyAddress(hostOf('http://0177.0.0.1/'))).toBe('loopback');
    expect(classifyAddress(hostOf('http://0x7f.1/'))).toBe('loopback');
    expect(classifyAddress(hostOf('http://127.1/'))).toBe('loopback');
    expect(classifyAddress(hostOf('http://0xa9fea9fe/'))).toBe('metadata');
    expect(classifyAddress(hostOf('http://[::ffff:127.0.0.1]/'))).toBe('loopback');
    expect(classifyAddress(hostOf('http://[0:0:0:0:0:0:0:1]/'))).toBe('loopback');
    expect(classifyAddress(hostOf('http://0/'))).toBe('unspecified');
  });
});

describe('CIDR blocks', () => {
  it('parses v4 and v6 blocks and bare addresses, and refuses malformed ones', () => {
    expect(parseCidr('10.0.0.0/8')?.bits).toBe(8);
    expect(parseCidr('127.0.0.1')?.bits).toBe(32);
    expect(parseCidr('fd00::/8')?.bits).toBe(8);
    for (const bad of ['10.0.0.0/33', '10.0.0.0/x', 'example.com/8', '::/129', '1.2.3.4/8/9']) expect(parseCidr(bad), bad).toBeUndefined();
  });

  it('matches addresses inside the block, IPv4-mapped IPv6 included', () => {
    const block = parseCidr('127.0.0.0/8')!;
    expect(cidrContains(block, '127.0.0.1')).toBe(true);
    expect(cidrContains(block, '::ffff:127.0.0.1')).toBe(true);
    expect(cidrContains(block, '128.0.0.1')).toBe(false);
    expect(cidrContains(parseCidr('fd00::/8')!, 'fd12::1')).toBe(true);
    expect(cidrContains(parseCidr('fd00::/8')!, 'fc00::1')).toBe(false);
  });
});

describe('the endpoint policy', () => {
  it('reads false/empty (public only), true (any address) and CIDR lists, and names a bad entry', () => {
    expect(parseEndpointPolicy(undefined)).toEqual(publicOnly);
    expect(parseEndpointPolicy('false')).toEqual(publicOnly);
    expect(parseEndpointPolicy('true').allowAll).toBe(true);
    expect(parseEndpointPolicy('127.0.0.1/32, 10.0.0.0/8').allowed.map((cidr) => cidr.text)).toEqual(['127.0.0.1/32', '10.0.0.0/8']);
    expect(() => parseEndpointPolicy('127.0.0.1/32,intranet')).toThrow(/"intranet" is not true, false or a CIDR block/);
  });

  it('refuses non-http(s) schemes, credentials in the URL and IP-literal hosts that are not public, naming the reason', () => {
    expect(() => checkEndpointUrl('file:///etc/passwd', publicOnly)).toThrow(/scheme file: is not allowed/);
    expect(() => checkEndpointUrl('gopher://example.com/', publicOnly)).toThrow(/scheme gopher: is not allowed/);
    expect(() => checkEndpointUrl('not a url', publicOnly)).toThrow(/is not a valid URL/);
    expect(() => checkEndpointUrl('http://user:pw@example.com/', publicOnly)).toThrow(/credentials in the URL/);
    expect(() => checkEndpointUrl('http://127.0.0.1:8080/mcp', publicOnly)).toThrow(/127\.0\.0\.1 is a loopback address/);
    expect(() => checkEndpointUrl('http://2130706433/mcp', publicOnly)).toThrow(/127\.0\.0\.1 is a loopback address/);
    expect(() => checkEndpointUrl('http://0177.0.0.1/mcp', publicOnly)).toThrow(/loopback/);
    expect(() => checkEndpointUrl('http://[::ffff:127.0.0.1]/mcp', publicOnly)).toThrow(/loopback/);
    expect(() => checkEndpointUrl('http://169.254.169.254/latest/meta-data', publicOnly)).toThrow(/the cloud metadata address/);
    expect(() => checkEndpointUrl('http://10.0.0.5/', publicOnly)).toThrow(/private \(RFC 1918\)/);
    expect(() => checkEndpointUrl('http://100.64.1.1/', publicOnly)).toThrow(/carrier-grade NAT/);
    expect(() => checkEndpointUrl('http://[fd00::1]/', publicOnly)).toThrow(/unique-local/);
    expect(() => checkEndpointUrl('http://0.0.0.0:80/', publicOnly)).toThrow(/unspecified/);
    expect(() => checkEndpointUrl('http://localhost:3000/', publicOnly)).toThrow(/localhost is a loopback address/);
    expect(() => checkEndpointUrl('http://api.localhost./', publicOnly)).toThrow(/loopback/);
  });

  it('passes public IP literals, returns names to resolve, and lets the operator allow blocks or everything', () => {
    expect(checkEndpointUrl('https://8.8.8.8/mcp', publicOnly).hostname).toBeUndefined();
    expect(checkEndpointUrl('https://mcp.example.com/mcp', publicOnly).hostname).toBe('mcp.example.com');
    const loopback = parseEndpointPolicy('127.0.0.1/32');
    expect(() => checkEndpointUrl('http://127.0.0.1:9/', loopback)).not.toThrow();
    expect(() => checkEndpointUrl('http://localhost:9/', loopback)).not.toThrow();
    expect(() => checkEndpointUrl('http://127.0.0.2:9/', loopback)).toThrow(/loopback/);
    expect(() => checkEndpointUrl('http://10.0.0.1/', parseEndpointPolicy('true'))).not.toThrow();
  });

  it('refuses a name when any of its addresses is not allowed (DNS answers are all checked)', () => {
    expect(() => checkResolvedAddresses('mixed.example', ['93.184.215.14', '127.0.0.1'], publicOnly)).toThrow(
      /mixed\.example \(127\.0\.0\.1\) is a loopback address/,
    );
    expect(() => checkResolvedAddresses('nothing.example', [], publicOnly)).toThrow(/does not resolve/);
    expect(() => checkResolvedAddresses('ok.example', ['93.184.215.14', '2606:4700:4700::1111'], publicOnly)).not.toThrow();
  });
});
