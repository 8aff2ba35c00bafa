/** One outgoing message (plain text): password reset and email verification links (issue 25). */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** What the message is for, for logs and outbox file names; never holds a secret. */
  readonly purpose: string;
}

/** Sends operator mail: SMTP when `SMTP_URL` is set, otherwise an outbox directory (embedded mode). */
export interface Mailer {
  /** Resolves once the message is handed over (accepted by the SMTP server, or written to the outbox). */
  send(message: MailMessage): Promise<void>;
  close?(): Promise<void>;
}
