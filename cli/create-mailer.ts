import { join } from 'node:path';
import { createOutboxMailer } from '../src/adapters/mail/outbox-mailer.js';
import type { Config } from '../src/config/load-config.js';
import type { Logger } from '../src/logging/logger.js';
import type { Mailer } from '../src/ports/mail.js';

/**
 * SMTP when SMTP_URL is set; otherwise an outbox directory, `<DATA_DIR>/outbox`, one `.eml` and one
 * `.json` file a message (said once at start, and per message with the file's path, never its link).
 * nodemailer is imported only for SMTP.
 */
export async function createMailer(config: Config, logger: Logger, distributed: boolean): Promise<Mailer> {
  if (config.smtpUrl !== undefined)
    return (await import('../src/adapters/mail/smtp-mailer.js')).createSmtpMailer({ url: config.smtpUrl, from: config.mailFrom, logger });
  const dir = join(config.dataDir, 'outbox');
  const log = distributed ? logger.warn.bind(logger) : logger.info.bind(logger);
  log(
    { outbox: dir },
    distributed
      ? "SMTP_URL is not set: operator mail is written to this replica's outbox directory"
      : 'SMTP_URL is not set: operator mail is written to the outbox directory',
  );
  return createOutboxMailer({ dir, logger });
}
