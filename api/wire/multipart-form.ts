/**
 * A `multipart/form-data` body (RFC 7578) read whole: its text fields and its file parts. Small on
 * purpose: `POST /v1/files` is its one user, its body is bounded by the route's bodyLimit, and no
 * multipart package is installed. Parts are split on the boundary the Content-Type names; a part
 * with a `filename` in its Content-Disposition is a file, any other a UTF-8 field.
 */
export interface MultipartForm {
  readonly fields: ReadonlyMap<string, string>;
  readonly files: ReadonlyMap<string, MultipartFile>;
}

export interface MultipartFile {
  readonly filename: string;
  readonly contentType: string | undefined;
  readonly content: Buffer;
}

/** A malformed body: the client's mistake (the route answers 400 with this message). */
export class MultipartError extends Error {
  override readonly name = 'MultipartError';
  readonly statusCode = 400;
}

/** The boundary of a `multipart/form-data` Content-Type (quoted or not), or undefined. */
export function boundaryOf(contentType: string | undefined): string | undefined {
  if (contentType === undefined || !/^multipart\/form-data\b/i.test(contentType)) return undefined;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

/** A Content-Disposition parameter (`name`, `filename`), quoted or token, with `\"` unescaped. */
function dispositionParameter(disposition: string, parameter: string): string | undefined {
  const match = new RegExp(`;\\s*${parameter}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]+))`, 'i').exec(disposition);
  if (match === null) return undefined;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2];
}

function headersOf(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/** Parses `body` split on `boundary`; throws MultipartError for a body that is not multipart as declared. */
export function parseMultipartForm(body: Buffer, boundary: string): MultipartForm {
  const delimiter = Buffer.from(`--${boundary}`);
  const fields = new Map<string, string>();
  const files = new Map<string, MultipartFile>();
  let at = body.indexOf(delimiter);
  if (at < 0) throw new MultipartError('the multipart body has no part: its boundary does not appear');
  for (;;) {
    at += delimiter.length;
    // `--` right after a delimiter closes the body.
    if (body[at] === 0x2d && body[at + 1] === 0x2d) break;
    if (body[at] !== 0x0d || body[at + 1] !== 0x0a) throw new MultipartError('the multipart body is malformed: a boundary is not followed by a line break');
    const headerEnd = body.indexOf('\r\n\r\n', at + 2);
    if (headerEnd < 0) throw new MultipartError('the multipart body is malformed: a part has no end of headers');
    const headers = headersOf(body.subarray(at + 2, headerEnd).toString('utf8'));
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headerEnd + 4);
    if (next < 0) throw new MultipartError('the multipart body is cut short: its closing boundary is missing');
    const content = body.subarray(headerEnd + 4, next);
    const disposition = headers.get('content-disposition') ?? '';
    const name = dispositionParameter(disposition, 'name');
    if (name !== undefined) {
      const filename = dispositionParameter(disposition, 'filename');
      if (filename !== undefined) files.set(name, { filename, contentType: headers.get('content-type'), content: Buffer.from(content) });
      else fields.set(name, content.toString('utf8'));
    }
    at = next + 2;
  }
  return { fields, files };
}
