import { describe, expect, it } from 'vitest';
import { parseCorsOrigins } from '../../../api/plugins/cross-origin.js';
import { trustProxyOption } from '../../../api/trust-proxy.js';

describe('trustProxyOption', () => {
  it('turns the environment strings true and false into booleans', () => {
    expect([trustProxyOption(false), trustProxyOption('false'), trustProxyOption(' true ')]).toEqual([false, false, true]);
  });

  it('passes an address list on to fastify as it is', () => {
    expect(trustProxyOption('10.0.0.1, 192.168.0.0/16,loopback')).toBe('10.0.0.1, 192.168.0.0/16,loopback');
  });
});

describe('parseCorsOrigins', () => {
  it('splits and trims the list, and gives none when unset', () => {
    expect(parseCorsOrigins(' https://a.example ,http://localhost:5173')).toEqual(['https://a.example', 'http://localhost:5173']);
    expect(parseCorsOrigins(undefined)).toEqual([]);
  });
});
