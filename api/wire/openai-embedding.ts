import type { EmbedResult } from '../../src/generation/embeddings/embed-options.js';

/** OpenAI's `encoding_format: base64`: the vector's little-endian float32 bytes, base64-encoded. */
export function base64Embedding(vector: readonly number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  for (const [index, value] of vector.entries()) bytes.writeFloatLE(value, index * 4);
  return bytes.toString('base64');
}

/** OpenAI's embeddings list: one `embedding` object per input, in order, as floats or base64. */
export function embeddingListBody(result: EmbedResult, encodingFormat: string | undefined) {
  const encode = encodingFormat === 'base64' ? base64Embedding : (vector: readonly number[]) => vector;
  return {
    object: 'list',
    data: result.embeddings.map((vector, index) => ({ object: 'embedding', index, embedding: encode(vector) })),
    model: result.model,
    usage: { prompt_tokens: result.usage.inputTokens, total_tokens: result.usage.inputTokens },
  };
}
