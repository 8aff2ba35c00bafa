import nodemailer from 'nodemailer';
import type { Logger } from '../../logging/logger.js';
import type { MailMessage, Mailer } from '../../ports/mail.js';

export interface SmtpMailerOptions {
  /** `smtp://user:pass@host:port` or `smtps://…` (SMTP_URL); credentials in it are never logged. */
  readonly url: string;
  /** The From address (MAIL_FROM). */
  readonly from: string;
  readonly logger: Logger;
}

/** Mail over SMTP through nodemailer; one pooled transport per process. */
export function createSmtpMailer(options: SmtpMailerOptions): Mailer {
  const transport = nodemailer.createTransport(options.url);
  return {
    async send(message: MailMessage): Promise<void> {
      const info = await transport.sendMail({ from: options.from, to: message.to, subject: message.subject, text: message.text });
      options.logger.info({ purpose: message.purpose, messageId: info.messageId }, 'mail handed to the SMTP server');
    },
    async close(): Promise<void> {
      transport.close();
    },
  };
}
