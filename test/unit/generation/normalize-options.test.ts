import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DeprecationNotice } from '../../../src/generation/deprecation-notice.js';
import { InvalidRequestError } from '../../../src/generation/errors/provider-errors.js';
import type { GenerateOptions } from '../../../src/generation/generate-options.js';
import { normalizeOptions } from '../../../src/generation/normalize-options.js';

const quiet = (): DeprecationNotice => new DeprecationNotice(() => undefined);
const png = 'data:image/png;base64,iVBORw0KGgo=';

function optionAtFault(options: unknown): string | undefined {
  try {
    normalizeOptions(options as GenerateOptions, quiet());
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestError);
    return (error as InvalidRequestError).option;
  }
  return undefined;
}

describe('normalizeOptions', () => {
  it('fills the documented defaults', () => {
    const request = normalizeOptions({ input: { text: 'hi' } }, quiet());
    expect(request).toMatchObject({
      text: 'hi',
      temperature: 0.7,
      maxTokens: 1000,
      maxSteps: 5,
      disableTools: false,
      enableAnalytics: false,
      enableEvaluation: false,
      timeoutMs: undefined,
    });
    expect(request.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it("fills NeuroLink's documented temperature and maxTokens whatever else the call says, and keeps what it gave", () => {
    // The gateway's no-defaults rule is not an option of the toolkit's: the gateway never goes through these options.
    const bare = normalizeOptions({ input: { text: 'hi' }, defaults: 'provider' } as GenerateOptions, quiet());
    expect(bare).toMatchObject({ temperature: 0.7, maxTokens: 1000 });
    const given = normalizeOptions({ input: { text: 'hi' }, temperature: 0, maxTokens: 12 }, quiet());
    expect(given).toMatchObject({ temperature: 0, maxTokens: 12 });
  });

  it('treats a bare string as input.text', () => {
    expect(normalizeOptions('hello', quiet()).text).toBe('hello');
  });

  it.each([
    [{}, 'input.text'],
    [{ input: { text: '' } }, 'input.text'],
    [{ input: { text: '   ' } }, 'input.text'],
    [{ input: 'text' }, 'input'],
    [{ prompt: 42 }, 'prompt'],
    [{ input: { text: 'x' }, temperature: 1.5 }, 'temperature'],
    [{ input: { text: 'x' }, temperature: -0.1 }, 'temperature'],
    [{ input: { text: 'x' }, temperature: '0.5' }, 'temperature'],
    [{ input: { text: 'x' }, maxTokens: 0 }, 'maxTokens'],
    [{ input: { text: 'x' }, maxTokens: 10.5 }, 'maxTokens'],
    [{ input: { text: 'x' }, maxTokens: 200_001 }, 'maxTokens'],
    [{ input: { text: 'x' }, maxSteps: 21 }, 'maxSteps'],
    [{ input: { text: 'x' }, timeout: 'soon' }, 'timeout'],
    [{ input: { text: 'x' }, timeout: -1 }, 'timeout'],
    [{ input: { text: 'x' }, provider: 'nope' }, 'provider'],
    [{ input: { text: 'x' }, provider: 7 }, 'provider'],
    [{ input: { text: 'x' }, model: '' }, 'model'],
    [{ input: { text: 'x' }, systemPrompt: 1 }, 'systemPrompt'],
    [{ input: { text: 'x' }, disableTools: 'yes' }, 'disableTools'],
    [{ input: { text: 'x' }, enableAnalytics: 1 }, 'enableAnalytics'],
    [{ input: { text: 'x' }, enableEvaluation: 'true' }, 'enableEvaluation'],
    [{ input: { text: 'x' }, context: 'ctx' }, 'context'],
    [{ input: { text: 'x' }, images: 'a' }, 'images'],
    [{ input: { text: 'x' }, images: ['https://example.com/a.png'] }, 'images[0]'],
    [{ input: { text: 'x' }, images: [png, 'data:image/png;base64,***'] }, 'images[1]'],
    [{ input: { text: 'x' }, schema: 'json' }, 'schema'],
    [{ input: { text: 'x' }, schema: { type: 'no-such-type' } }, 'schema'],
    [{ input: { text: 'x' }, tools: [{ name: 'x' }] }, 'tools[0]'],
    [{ input: { text: 'x' }, conversationHistory: {} }, 'conversationHistory'],
    [{ input: { text: 'x' }, conversationHistory: [{ role: 'robot', content: 'x' }] }, 'conversationHistory[0].role'],
    [{ input: { text: 'x' }, conversationHistory: [{ role: 'user' }] }, 'conversationHistory[0]'],
    [{ input: { text: 'x' }, confirmedTools: 'writeFile' }, 'confirmedTools'],
    [{ input: { text: 'x' }, abortSignal: {} }, 'abortSignal'],
    [{ input: { text: 'x' }, evaluation: { provider: 'nope' } }, 'evaluation.provider'],
    [{ input: { text: 'x' }, evaluation: { timeout: 'x' } }, 'evaluation.timeout'],
    [{ input: { text: 'x' }, output: 'json' }, 'output'],
    [{ input: { text: 'x' }, output: { format: 'xml' } }, 'output.format'],
    [{ input: { text: 'x' }, output: { streaming: 5 } }, 'output.streaming'],
    [{ input: { text: 'x' }, output: { streaming: { chunkSize: 0 } } }, 'output.streaming.chunkSize'],
    [{ input: { text: 'x' }, output: { streaming: { chunkSize: 2.5 } } }, 'output.streaming.chunkSize'],
    [{ input: { text: 'x' }, output: { streaming: { bufferSize: -1 } } }, 'output.streaming.bufferSize'],
    [{ input: { text: 'x' }, output: { streaming: { enableProgress: 'yes' } } }, 'output.streaming.enableProgress'],
  ])('rejects %j naming %s', (options, option) => {
    expect(optionAtFault(options)).toBe(option);
  });

  it('accepts every documented option', () => {
    const request = normalizeOptions(
      {
        input: { text: 'describe' },
        provider: 'claude',
        model: 'claude-x',
        temperature: 0,
        maxTokens: 200_000,
        maxSteps: 20,
        systemPrompt: 'be brief',
        timeout: '1.5s',
        disableTools: true,
        enableAnalytics: true,
        enableEvaluation: true,
        context: { userId: 'u1' },
        images: [png],
        conversationHistory: [
          { role: 'system', content: 'history rule' },
          { role: 'user', content: 'earlier' },
          { role: 'assistant', content: 'reply' },
        ],
        confirmedTools: ['writeFile'],
        output: { format: 'json', streaming: { chunkSize: 4, bufferSize: 8192, enableProgress: true } },
      } as GenerateOptions,
      quiet(),
    );
    expect(request).toMatchObject({
      provider: 'anthropic',
      model: 'claude-x',
      temperature: 0,
      timeoutMs: 1500,
      system: 'be brief\n\nhistory rule\n\nAnswer with one valid JSON value and nothing else: no prose, no code fences.',
      hasHistory: true,
      outputFormat: 'json',
      jsonAnswer: true,
      streamChunkSize: 4,
    });
    expect(request.messages).toHaveLength(3);
    expect(request.messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'describe' },
        { type: 'image', dataUrl: png },
      ],
    });
    expect([...request.confirmedTools]).toEqual(['writeFile']);
  });

  it('converts a zod schema to JSON Schema and validates answers with it', () => {
    const request = normalizeOptions({ input: { text: 'x' }, schema: z.object({ city: z.string() }) }, quiet());
    expect(request.schema?.json).toMatchObject({ type: 'object', properties: { city: { type: 'string' } } });
    expect(request.schema?.check({ city: 'Pune' })).toBeUndefined();
    expect(request.schema?.check({ city: 3 })).toMatch(/city/);
  });

  it('validates answers against a JSON Schema object', () => {
    const request = normalizeOptions({ input: { text: 'x' }, schema: { type: 'object', required: ['n'], properties: { n: { type: 'number' } } } }, quiet());
    expect(request.schema?.check({ n: 1 })).toBeUndefined();
    expect(request.schema?.check({})).toMatch(/n/);
  });
});

describe('the legacy prompt option', () => {
  it('works and warns once per notice, however often it is used', () => {
    const warnings: string[] = [];
    const notice = new DeprecationNotice((message) => warnings.push(message));
    expect(normalizeOptions({ prompt: 'one' }, notice).text).toBe('one');
    expect(normalizeOptions({ prompt: 'two' }, notice).text).toBe('two');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/prompt.*deprecated.*input: \{ text \}/);
  });

  it('does not warn when the notice is suppressed', () => {
    const warnings: string[] = [];
    const notice = new DeprecationNotice((message) => warnings.push(message), true);
    normalizeOptions({ prompt: 'one' }, notice);
    expect(warnings).toEqual([]);
  });

  it('prefers input.text and does not warn when both are given', () => {
    const warnings: string[] = [];
    const notice = new DeprecationNotice((message) => warnings.push(message));
    expect(normalizeOptions({ input: { text: 'new' }, prompt: 'old' }, notice).text).toBe('new');
    expect(warnings).toEqual([]);
  });
});
