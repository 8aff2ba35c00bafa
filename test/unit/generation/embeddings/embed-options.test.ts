import { describe, expect, it } from 'vitest';
import { MAX_EMBED_INPUTS, normalizeEmbedOptions } from '../../../../src/generation/embeddings/embed-options.js';
import { InvalidRequestError } from '../../../../src/generation/errors/provider-errors.js';

function refusal(options: unknown): { option: string | undefined; message: string } {
  try {
    normalizeEmbedOptions(options as never);
  } catch (error) {
    if (error instanceof InvalidRequestError) return { option: error.option, message: error.message };
    throw error;
  }
  throw new Error('accepted');
}

describe('normalizeEmbedOptions', () => {
  it('takes one text or several, keeps their order and attributes the call to the library by default', () => {
    expect(normalizeEmbedOptions({ input: 'one' })).toMatchObject({
      values: ['one'],
      provider: undefined,
      dimensions: undefined,
      attribution: { surface: 'library' },
    });
    expect(normalizeEmbedOptions({ input: ['b', 'a'], provider: 'OpenAI', dimensions: 64, timeout: '2s' })).toMatchObject({
      values: ['b', 'a'],
      provider: 'openai',
      dimensions: 64,
      timeoutMs: 2000,
    });
  });

  it('names the option at fault', () => {
    expect(refusal({ input: [] })).toMatchObject({ option: 'input' });
    expect(refusal({ input: ['ok', ''] })).toMatchObject({ option: 'input[1]' });
    expect(refusal({ input: ['ok', 7] })).toMatchObject({ option: 'input[1]' });
    expect(refusal({ input: Array.from({ length: MAX_EMBED_INPUTS + 1 }, () => 'x') }).message).toContain(`at most ${MAX_EMBED_INPUTS}`);
    expect(refusal({ input: 'x', provider: 'nobody' })).toMatchObject({ option: 'provider' });
    expect(refusal({ input: 'x', dimensions: 0 })).toMatchObject({ option: 'dimensions' });
    expect(refusal({ input: 'x', dimensions: 1.5 })).toMatchObject({ option: 'dimensions' });
    expect(refusal({ input: 'x', model: ' ' })).toMatchObject({ option: 'model' });
  });
});
