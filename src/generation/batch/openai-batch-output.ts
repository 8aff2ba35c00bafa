import { createHash } from 'node:crypto';
import type { BatchItem } from '../../ports/state/batch-store.js';

/** A deterministic id of 24 base64url characters for `seed`: every finalizer of a batch names its files alike. */
function digestId(seed: string): string {
  return createHash('sha256').update(seed).digest('base64url').slice(0, 24);
}

/** The output or error file id of a batch: the same for every finalizer, so racing ones write one file. */
export function batchFileId(batchId: string, kind: 'output' | 'error'): string {
  return `file-${digestId(`${batchId}:${kind}`)}`;
}

/** A line's id in the output files (`batch_req_…`), and the request id its gateway call carries. */
export function batchLineIds(batchId: string, index: number): { readonly id: string; readonly requestId: string } {
  const digest = digestId(`${batchId}:${index}`);
  return { id: `batch_req_${digest}`, requestId: `req_${digest}` };
}

/** The `custom_id` of a stored line (its item text is the input line's JSON). */
export function customIdOf(item: BatchItem): string {
  const line = JSON.parse(item.prompt) as { custom_id?: unknown };
  return typeof line.custom_id === 'string' ? line.custom_id : String(item.index);
}

function parseBody(text: string | undefined): unknown {
  if (text === undefined) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Stored by us from a parsed body, so this is a damaged store; keep the text rather than drop the line.
    return text;
  }
}

/** One line of an output or error file: OpenAI's `{id, custom_id, response, error}`. */
interface OutputLine {
  readonly id: string;
  readonly custom_id: string;
  readonly response: { readonly status_code: number; readonly request_id: string; readonly body: unknown } | null;
  readonly error: { readonly code: string; readonly message: string } | null;
}

/** Where an ended item goes: the output file (answered 2xx) or the error file (anything else). */
export function outputLineOf(batchId: string, item: BatchItem, expired: boolean): { readonly file: 'output' | 'error'; readonly line: OutputLine } | undefined {
  const outcome = item.outcome;
  if (outcome === undefined) return undefined;
  const { id, requestId } = batchLineIds(batchId, item.index);
  const base = { id, custom_id: customIdOf(item) };
  switch (outcome.status) {
    case 'succeeded':
      return { file: 'output', line: { ...base, response: { status_code: 200, request_id: requestId, body: parseBody(outcome.content) }, error: null } };
    case 'failed': {
      const { statusCode, responseBody } = outcome.error;
      if (statusCode !== undefined && responseBody !== undefined)
        return { file: 'error', line: { ...base, response: { status_code: statusCode, request_id: requestId, body: parseBody(responseBody) }, error: null } };
      // The gateway could not be reached for this line: no response, only why.
      return { file: 'error', line: { ...base, response: null, error: { code: outcome.error.code ?? 'request_failed', message: outcome.error.message } } };
    }
    case 'cancelled':
      return {
        file: 'error',
        line: {
          ...base,
          response: null,
          error: expired
            ? { code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' }
            : { code: 'batch_cancelled', message: 'This request was not executed because the batch was cancelled.' },
        },
      };
  }
}
