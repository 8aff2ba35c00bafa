import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOutboxMailer } from '../../src/adapters/mail/outbox-mailer.js';
import { silentLogger } from '../../src/logging/logger.js';
import type { MailMessage, Mailer } from '../../src/ports/mail.js';

/** A real mailer (by default the outbox in a fresh directory) whose deliveries a test can await. */
export interface CapturedMail {
  readonly mailer: Mailer;
  /** The outbox directory (when the default outbox mailer is used). */
  readonly dir: string;
  /** Every message delivered so far, in order. */
  readonly delivered: MailMessage[];
  /** Resolves with the `n`-th delivered message (0-based) once its delivery has finished. */
  nth(n: number): Promise<MailMessage>;
}

export function captureMail(inner?: Mailer): CapturedMail {
  const dir = mkdtempSync(join(tmpdir(), 'sytest-outbox-'));
  const mailer = inner ?? createOutboxMailer({ dir, logger: silentLogger });
  const delivered: MailMessage[] = [];
  const waiters = new Map<number, (message: MailMessage) => void>();
  return {
    dir,
    delivered,
    mailer: {
      async send(message) {
        await mailer.send(message);
        delivered.push(message);
        waiters.get(delivered.length - 1)?.(message);
      },
      close: async () => mailer.close?.(),
    },
    nth(n) {
      const message = delivered[n];
      if (message !== undefined) return Promise.resolve(message);
      return new Promise((resolve) => waiters.set(n, resolve));
    },
  };
}

/** The one-time token of a mailed link (`?token=…`). */
export function tokenOf(text: string): string {
  const match = /[?&]token=([A-Za-z0-9_%-]+)/.exec(text);
  if (match?.[1] === undefined) throw new Error(`no token in: ${text}`);
  return decodeURIComponent(match[1]);
}
