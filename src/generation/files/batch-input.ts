import { SwitchyardError } from '../../errors/switchyard-error.js';

/** The endpoints an OpenAI batch may run here: the gateway's own routes of the same path. */
export const batchEndpoints = ['/v1/chat/completions', '/v1/responses', '/v1/embeddings'] as const;

export type BatchEndpoint = (typeof batchEndpoints)[number];

export function isBatchEndpoint(value: unknown): value is BatchEndpoint {
  return typeof value === 'string' && (batchEndpoints as readonly string[]).includes(value);
}

/** One request line of a batch input file (OpenAI's "request input object"). */
export interface BatchInputLine {
  readonly custom_id: string;
  readonly method: 'POST';
  readonly url: BatchEndpoint;
  readonly body: Readonly<Record<string, unknown>>;
}

/** 512 characters: OpenAI's bound on a `custom_id` (its batch guide). */
const maxCustomIdLength = 512;

function invalidLine(lineNumber: number, message: string, param: string): SwitchyardError {
  return new SwitchyardError('SY_FILE_INVALID', { message: `line ${lineNumber}: ${message}`, details: { param, line: lineNumber } });
}

function parseLine(text: string, lineNumber: number): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // The parser's own message names a character offset in a line we already name; ours is enough.
    throw invalidLine(lineNumber, 'is not valid JSON', 'file');
  }
}

function checkLine(value: unknown, lineNumber: number, seen: Set<string>): BatchInputLine {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidLine(lineNumber, 'must be a JSON object', 'file');
  const line = value as Record<string, unknown>;
  const customId = line['custom_id'];
  if (typeof customId !== 'string' || customId === '' || customId.length > maxCustomIdLength)
    throw invalidLine(lineNumber, `custom_id must be a string of 1 to ${maxCustomIdLength} characters`, 'custom_id');
  if (seen.has(customId)) throw invalidLine(lineNumber, `custom_id "${customId.slice(0, 64)}" is used by an earlier line; each must be unique`, 'custom_id');
  seen.add(customId);
  if (line['method'] !== 'POST') throw invalidLine(lineNumber, 'method must be "POST"', 'method');
  if (!isBatchEndpoint(line['url'])) throw invalidLine(lineNumber, `url must be one of ${batchEndpoints.join(', ')}`, 'url');
  const body = line['body'];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidLine(lineNumber, 'body must be a JSON object', 'body');
  const request = body as Record<string, unknown>;
  if (typeof request['model'] !== 'string' || request['model'] === '') throw invalidLine(lineNumber, 'body.model must be a non-empty string', 'body.model');
  // A batch line's answer is one JSON body in the output file: there is no one to stream to.
  if (request['stream'] === true) throw invalidLine(lineNumber, 'body.stream is not supported in a batch', 'body.stream');
  return { custom_id: customId, method: 'POST', url: line['url'], body: request };
}

/**
 * Reads a batch input file (JSONL, UTF-8): one request per non-blank line, each with a unique
 * `custom_id`, `method` POST, a `url` of {@link batchEndpoints} and a JSON `body` naming a `model`.
 * Throws SY_FILE_INVALID naming the first bad line (1-based) and its field; the body's other
 * fields are checked when the line runs, by the route the line names, as a direct call would be.
 */
export function parseBatchInput(content: Uint8Array, maxLines: number): readonly BatchInputLine[] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(content);
  } catch {
    throw new SwitchyardError('SY_FILE_INVALID', { message: 'a batch input file must be UTF-8 text (JSONL)', details: { param: 'file' } });
  }
  const lines: BatchInputLine[] = [];
  const seen = new Set<string>();
  const rows = text.split('\n');
  for (let at = 0; at < rows.length; at++) {
    const row = rows[at]!.trim();
    if (row === '') continue;
    if (lines.length === maxLines)
      throw new SwitchyardError('SY_FILE_INVALID', {
        message: `a batch input file may carry at most ${maxLines} requests`,
        details: { param: 'file', max: maxLines },
      });
    lines.push(checkLine(parseLine(row, at + 1), at + 1, seen));
  }
  if (lines.length === 0)
    throw new SwitchyardError('SY_FILE_INVALID', { message: 'a batch input file must carry at least one request line', details: { param: 'file' } });
  return lines;
}
