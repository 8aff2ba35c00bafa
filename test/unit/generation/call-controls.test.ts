import { describe, expect, it } from 'vitest';
import { DeprecationNotice } from '../../../src/generation/deprecation-notice.js';
import { InvalidRequestError } from '../../../src/generation/errors/provider-errors.js';
import type { GenerateOptions } from '../../../src/generation/generate-options.js';
import { normalizeOptions } from '../../../src/generation/normalize-options.js';

const quiet = (): DeprecationNotice => new DeprecationNotice(() => undefined);
const normalize = (options: Record<string, unknown>) => normalizeOptions({ input: { text: 'hi' }, ...options } as GenerateOptions, quiet());

function optionAtFault(options: Record<string, unknown>): string | undefined {
  try {
    normalize(options);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestError);
    return (error as InvalidRequestError).option;
  }
  return undefined;
}

describe('call controls (topP, topK, stopSequences, toolChoice, parallelToolCalls, reasoning, providerHeaders)', () => {
  it('keeps the ones given, and none that were not', () => {
    const controls = {
      topP: 0.4,
      topK: 20,
      stopSequences: ['END'],
      toolChoice: { toolName: 'lookup' },
      parallelToolCalls: false,
      reasoning: 'low',
      providerHeaders: { anthropic: { 'anthropic-beta': 'x' } },
    };
    expect(normalize(controls).controls).toEqual(controls);
    expect(normalize({}).controls).toEqual({});
  });

  it('leaves temperature to the provider when only topP is given, and keeps an explicit one', () => {
    expect(normalize({ topP: 0.4 }).temperature).toBeUndefined();
    expect(normalize({ topP: 0.4, temperature: 0.2 }).temperature).toBe(0.2);
    expect(normalize({}).temperature).toBe(0.7);
  });

  it('names the option at fault', () => {
    expect(optionAtFault({ topP: 1.5 })).toBe('topP');
    expect(optionAtFault({ topK: 2.5 })).toBe('topK');
    expect(optionAtFault({ stopSequences: 'END' })).toBe('stopSequences');
    expect(optionAtFault({ stopSequences: Array.from({ length: 17 }, (_, index) => `s${index}`) })).toBe('stopSequences');
    expect(optionAtFault({ toolChoice: 'any' })).toBe('toolChoice');
    expect(optionAtFault({ toolChoice: { toolName: '' } })).toBe('toolChoice');
    expect(optionAtFault({ parallelToolCalls: 'no' })).toBe('parallelToolCalls');
    expect(optionAtFault({ reasoning: 'extreme' })).toBe('reasoning');
    expect(optionAtFault({ providerHeaders: { nobody: {} } })).toBe('providerHeaders.nobody');
    expect(optionAtFault({ providerHeaders: { anthropic: { 'anthropic-beta': 1 } } })).toBe('providerHeaders.anthropic');
  });

  it('takes image URLs only with allowImageUrls', () => {
    expect(optionAtFault({ images: ['https://example.com/a.png'] })).toBe('images[0]');
    expect(normalize({ images: ['https://example.com/a.png'], allowImageUrls: true }).messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'hi' },
        { type: 'image-url', url: 'https://example.com/a.png' },
      ],
    });
    expect(optionAtFault({ images: ['file:///etc/passwd'], allowImageUrls: true })).toBe('images[0]');
  });
});
