import { createHash } from 'node:crypto';

/** Longest end-user id kept (OpenAI's `user` and Messages' `metadata.user_id` are free strings). */
export const maxEndUserLength = 256;

/** The header a caller can name its end user with, on every model route (it wins over the body). */
export const endUserHeader = 'x-switchyard-end-user';

/**
 * The counters' name for an end user: a digest, so an id that is an e-mail address or a name is
 * not spelled out in Redis keys, and any id has the same short, safe form.
 */
export function endUserTag(endUser: string): string {
  return createHash('sha256').update(endUser).digest('base64url').slice(0, 22);
}

/**
 * The end user a model call names: the header, else the body's own field — `user` (OpenAI's chat
 * completions, Responses, embeddings), `safety_identifier` (OpenAI's newer name for it), or
 * `metadata.user_id` (Anthropic's Messages). Empty or non-string values name none; longer ids are
 * cut to `maxEndUserLength` characters.
 */
export function endUserOf(header: unknown, body: unknown): string | undefined {
  const named = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, maxEndUserLength) : undefined);
  const fromHeader = named(header);
  if (fromHeader !== undefined || typeof body !== 'object' || body === null) return fromHeader;
  const record = body as Record<string, unknown>;
  const metadata = record['metadata'];
  return (
    named(record['user']) ??
    named(record['safety_identifier']) ??
    (typeof metadata === 'object' && metadata !== null ? named((metadata as Record<string, unknown>)['user_id']) : undefined)
  );
}
