import fastJsonStringify, { type Schema } from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { sharedSchemasReached } from '../../../api/plugins/request-validation.js';

const shared: Record<string, Schema> = {
  Money: { $id: 'Money', type: 'object', properties: { amount: { type: 'number' }, currency: { $ref: 'Currency#' } } },
  Currency: { $id: 'Currency', type: 'string' },
  Line: { $id: 'Line', type: 'object', properties: { price: { $ref: 'Money#' }, next: { $ref: 'Line#' } } },
  Unrelated: { $id: 'Unrelated', type: 'object', properties: { note: { type: 'string' } } },
};

describe('the shared schemas a response schema reaches', () => {
  it('follows references through the shared schemas, cycles included, and leaves the rest out', () => {
    const reached = sharedSchemasReached({ type: 'object', properties: { line: { $ref: 'Line#' } } }, shared);
    expect(Object.keys(reached).sort()).toEqual(['Currency', 'Line', 'Money']);
    expect(reached['Money']).toBe(shared['Money']);
  });

  it('reads a reference into a part of a shared schema as a reference to that schema', () => {
    expect(Object.keys(sharedSchemasReached({ $ref: 'Money#/properties/currency' }, shared)).sort()).toEqual(['Currency', 'Money']);
  });

  it('needs none for a schema whose references stay within itself', () => {
    const local = { definitions: { n: { type: 'number' } }, type: 'object', properties: { n: { $ref: '#/definitions/n' } } };
    expect(sharedSchemasReached(local, shared)).toEqual({});
  });

  it('hands over every shared schema when a reference names none of them', () => {
    expect(sharedSchemasReached({ $ref: 'https://example.com/elsewhere.json#' }, shared)).toBe(shared);
  });

  it('serialises as the full set does', () => {
    const schema: Schema = { type: 'object', properties: { line: { $ref: 'Line#' }, total: { $ref: 'Money#' } } };
    const body = {
      line: { price: { amount: 1.5, currency: 'EUR', extra: true }, next: { price: { amount: 2, currency: 'USD' } } },
      total: { amount: 3.5, currency: 'EUR' },
    };
    const all = fastJsonStringify(schema, { schema: shared });
    const reached = fastJsonStringify(schema, { schema: sharedSchemasReached(schema, shared) as Record<string, Schema> });
    expect(reached(body)).toBe(all(body));
    expect(JSON.parse(reached(body))).toEqual({
      line: { price: { amount: 1.5, currency: 'EUR' }, next: { price: { amount: 2, currency: 'USD' } } },
      total: { amount: 3.5, currency: 'EUR' },
    });
  });
});
