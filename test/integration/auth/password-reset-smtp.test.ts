import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../../cli/create-mailer.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { silentLogger } from '../../../src/logging/logger.js';
import { captureMail, tokenOf, type CapturedMail } from '../../helpers/mail-capture.js';
import { createMerchant, createTestApp, signUp, testPassword, type TestApp } from '../../helpers/test-app.js';

/*
 * Password reset and email verification over a real SMTP server (issue 25): aiosmtpd from
 * deploy/local/smtp.sh (started by `deploy/local/start.sh all`), which writes every message it
 * accepts into a maildir before answering 250. The app's mailer is the composition root's, built
 * from SMTP_URL. No skip when the server is down: the suite fails then, naming how to start it.
 */

const smtpUrl = process.env['SMTP_TEST_URL'] ?? 'smtp://127.0.0.1:2525';
const deployDir = fileURLToPath(new URL('../../../deploy/local/', import.meta.url));
const maildir = process.env['SMTP_TEST_MAILDIR'] ?? execFileSync('bash', [join(deployDir, 'smtp.sh'), 'maildir'], { encoding: 'utf8' }).trim();
const publicBaseUrl = 'http://switchyard.smtp.test';
const newPassword = 'granite-compass-willow-58';

/** The server's 220 greeting, or an error saying how to start it. */
function greeting(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.setTimeout(5_000, () => socket.destroy(new Error('no greeting within 5 s')));
    socket.once('data', (data) => {
      socket.end('QUIT\r\n');
      resolve(data.toString('utf8'));
    });
    socket.once('error', (error) =>
      reject(new Error(`no SMTP server at ${url}: start it with \`bash deploy/local/smtp.sh start\` (or deploy/local/start.sh all)`, { cause: error })),
    );
  });
}

interface ReceivedMail {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** RFC 2045 quoted-printable: soft line breaks dropped, =XX decoded (as UTF-8). */
function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i += 1) {
    const hex = joined[i] === '=' ? joined.slice(i + 1, i + 3) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** One maildir file: its (unfolded, lower-cased) headers and its decoded single-part text body. */
function parseMail(raw: string): ReceivedMail {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rawBody = raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const body =
    encoding === 'quoted-printable' ? decodeQuotedPrintable(rawBody) : encoding === 'base64' ? Buffer.from(rawBody, 'base64').toString('utf8') : rawBody;
  return { headers, body };
}

/** Every message the server accepted for `recipient` (its envelope's RCPT TO), oldest first. */
function receivedFor(recipient: string): ReceivedMail[] {
  const files = ['new', 'cur'].flatMap((sub) => {
    const dir = join(maildir, sub);
    return existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : [];
  });
  return files
    .map((file) => parseMail(readFileSync(file, 'utf8')))
    .filter((mail) => (mail.headers['x-rcptto'] ?? '').split(',').some((address) => address.trim().toLowerCase() === recipient))
    .sort((a, b) => Date.parse(a.headers['date'] ?? '') - Date.parse(b.headers['date'] ?? ''));
}

describe('password reset and email verification through a real SMTP server', () => {
  let t: TestApp;
  let mail: CapturedMail;
  const email = `reset-${randomBytes(5).toString('hex')}@smtp.example`;

  beforeAll(async () => {
    expect(await greeting(smtpUrl)).toMatch(/^220 /);
    const env = { SMTP_URL: smtpUrl, MAIL_FROM: 'Switchyard <no-reply@switchyard.smtp.test>', PUBLIC_BASE_URL: publicBaseUrl };
    // The composition root's mailer for this configuration (SMTP, nodemailer); captureMail only
    // lets the test await each send, which resolves once the server has answered 250.
    mail = captureMail(await createMailer(loadConfig(env), silentLogger, true));
    t = await createTestApp({ env, mailer: mail.mailer });
    await createMerchant(t.app, 'smtp-shop');
    await signUp(t.app, email, 'smtp-shop');
  }, 60_000);

  afterAll(async () => t?.close());

  const reset = (token: string) => t.app.inject({ method: 'POST', url: '/auth/reset-password', payload: { token, new_password: newPassword } });

  it('delivers the reset mail to the SMTP server; its link resets the password once, a second use is refused', async () => {
    const forgot = await t.app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email } });
    expect(forgot.statusCode).toBe(200);
    await mail.nth(1);

    const received = receivedFor(email).filter((message) => message.headers['subject'] === 'Reset your Switchyard password');
    expect(received).toHaveLength(1);
    const [message] = received;
    expect(message!.headers['x-mailfrom']).toBe('no-reply@switchyard.smtp.test');
    expect(message!.headers['to']).toBe(email);
    const link = /https?:\/\/\S+/.exec(message!.body)?.[0] ?? '';
    expect(link.startsWith(`${publicBaseUrl}/`), link).toBe(true);
    const token = tokenOf(link);

    expect((await reset(token)).statusCode).toBe(200);
    const again = await reset(token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ code: 'TE_04', message: 'Invalid or expired password reset token', data: null });
    expect((await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: newPassword } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: testPassword } })).statusCode).toBe(401);
  });

  it("delivers the signup's verification mail; its token verifies the email once", async () => {
    await mail.nth(0);
    const received = receivedFor(email).filter((message) => message.headers['subject'] === 'Verify your Switchyard email address');
    expect(received).toHaveLength(1);
    const token = tokenOf(received[0]!.body);
    const verify = () => t.app.inject({ method: 'GET', url: `/auth/verify-email?token=${encodeURIComponent(token)}` });
    expect((await verify()).statusCode).toBe(200);
    expect((await verify()).statusCode).toBe(400);
  });

  it('sends no mail for an unknown email, and answers it as a known one', async () => {
    const unknown = `nobody-${randomBytes(5).toString('hex')}@smtp.example`;
    const answer = await t.app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: unknown } });
    const known = await t.app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email } });
    expect([answer.statusCode, answer.body]).toEqual([known.statusCode, known.body]);
    // The known address's mail (the third message) arriving proves the unknown one's would have come first.
    await mail.nth(2);
    expect(mail.delivered.map((message) => message.to)).not.toContain(unknown);
    expect(receivedFor(unknown)).toEqual([]);
  });
});
