import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../logging/logger.js';
import type { MailMessage, Mailer } from '../../ports/mail.js';

export interface OutboxMailerOptions {
  /** The outbox directory, `<DATA_DIR>/outbox` in embedded mode. */
  readonly dir: string;
  readonly logger: Logger;
  readonly now?: () => number;
}

/**
 * Embedded-mode mail: each message becomes `<time>-<purpose>-<id>.eml` (RFC 5322, readable by any
 * mail client) and a `.json` twin beside it in the outbox directory. The log line names the file and
 * the purpose, never the message body (it carries the one-time link).
 */
export function createOutboxMailer(options: OutboxMailerOptions): Mailer {
  const now = options.now ?? Date.now;
  let ready: Promise<unknown> | undefined;
  return {
    async send(message: MailMessage): Promise<void> {
      ready ??= mkdir(options.dir, { recursive: true, mode: 0o700 });
      await ready;
      const sentAt = now();
      const base = `${new Date(sentAt).toISOString().replace(/[:.]/g, '-')}-${message.purpose.replace(/[^a-z0-9_-]/gi, '')}-${randomUUID()}`;
      const eml = join(options.dir, `${base}.eml`);
      await writeAtomically(join(options.dir, `${base}.json`), `${JSON.stringify({ ...message, sentAt: new Date(sentAt).toISOString() }, null, 2)}\n`);
      await writeAtomically(eml, toEml(message, sentAt));
      options.logger.info({ outbox: eml, purpose: message.purpose }, 'mail written to the outbox (SMTP_URL is not set)');
    },
  };
}

/** Write then rename: a reader of the directory never sees half a message. Owner-only: it holds a link. */
async function writeAtomically(path: string, content: string): Promise<void> {
  const temporary = `${path}.tmp`;
  await writeFile(temporary, content, { mode: 0o600 });
  await rename(temporary, path);
}

function toEml(message: MailMessage, sentAt: number): string {
  const header = (value: string): string => value.replace(/[\r\n]+/g, ' ');
  return [
    `To: ${header(message.to)}`,
    `Subject: ${header(message.subject)}`,
    `Date: ${new Date(sentAt).toUTCString()}`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    message.text.replace(/\r?\n/g, '\r\n'),
  ].join('\r\n');
}
