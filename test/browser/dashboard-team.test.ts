import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailMessage } from '../../src/ports/mail.js';
import { operatorPassword, screenshot, seriousViolations, signUpWithMerchant, startDashboardHarness, type DashboardHarness } from './dashboard-harness.js';

/**
 * The team and account pages end to end (issue 25): Members (invite with the generated password
 * shown once, read-only members, removal, a 403 said plainly), Your account (password change), and
 * the forgot → mailed link → reset flow and email verification, reading the mail the embedded
 * service writes to `DATA_DIR/outbox`. Tests run in order and share one admin and merchant.
 */

let harness: DashboardHarness;
let context: BrowserContext;
let page: Page;
let problems: string[];
const stamp = Date.now();
const adminEmail = `team-admin-${stamp}@example.com`;
const memberEmail = `team-member-${stamp}@example.com`;
const secondAdminEmail = `team-second-${stamp}@example.com`;
const changedPassword = 'copper-meadow-signal-77';
const resetPassword = 'amber-quarry-window-58';
let adminPassword = operatorPassword;

type OutboxMail = MailMessage & { readonly file: string };

/** The little of the DOM that functions run in the page use (this project's types are Node's, without the DOM). */
interface PageGlobals {
  readonly document: {
    querySelector(selector: string): unknown;
    readonly documentElement: { readonly scrollWidth: number; readonly clientWidth: number };
  };
}

/** Every message the service has written to its outbox so far (the `.json` twin of each `.eml`). */
function outbox(): OutboxMail[] {
  const dir = join(harness.dataDir, 'outbox');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => ({ ...(JSON.parse(readFileSync(join(dir, name), 'utf8')) as MailMessage), file: name }));
}

/** Waits for the mail (delivered in the background) and answers the dashboard link in it, as a path of this server. */
async function mailedLink(to: string, purpose: MailMessage['purpose'], page: 'reset-password' | 'verify-email'): Promise<string> {
  await expect.poll(() => outbox().filter((mail) => mail.to === to && mail.purpose === purpose).length, { timeout: 10_000 }).toBe(1);
  const mail = outbox().find((message) => message.to === to && message.purpose === purpose)!;
  const link = /https?:\/\/\S+/.exec(mail.text)?.[0] ?? '';
  // PUBLIC_BASE_URL is unset: the link starts with http://HOST:PORT (PORT 0 here: a free port was taken at listen).
  expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/dashboard/#/${page}\\?token=[A-Za-z0-9_-]{43}$`));
  const url = new URL(link);
  return `${url.pathname}${url.hash}`;
}

async function go(path: string): Promise<void> {
  await page.goto(`/dashboard/#/${path}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
}

async function signIn(target: Page, email: string, password: string): Promise<void> {
  await target.getByRole('heading', { name: 'Sign in' }).waitFor();
  await target.getByLabel('Email').fill(email);
  await target.getByLabel('Password', { exact: true }).fill(password);
  await target.getByRole('button', { name: 'Sign in' }).click();
}

async function signOut(): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
}

async function apiLogin(email: string, password: string): Promise<Response> {
  return fetch(`${harness.url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
}

async function invite(email: string, role: 'admin' | 'member'): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Role').selectOption(role);
  await page.getByRole('button', { name: 'Invite' }).click();
  await page.getByTestId('invited').waitFor();
}

async function removeMember(email: string): Promise<void> {
  await page.getByRole('button', { name: `Remove ${email}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove this member?' });
  await dialog.getByText(email).waitFor();
  await dialog.getByRole('button', { name: 'Remove member' }).click();
  await page.getByRole('row').filter({ hasText: email }).waitFor({ state: 'detached' });
}

beforeAll(async () => {
  harness = await startDashboardHarness();
  ({ context, page, problems } = await harness.newPage(1280, 900));
});

afterAll(async () => {
  await context?.close();
  await harness?.close();
});

describe('dashboard team and account pages', () => {
  it('signs up an admin, whose verification mail links to a dashboard page that verifies the email once', async () => {
    await signUpWithMerchant(page, { email: adminEmail, password: adminPassword, merchantName: 'Team Shop' });

    const link = await mailedLink(adminEmail, 'email_verification', 'verify-email');
    await page.goto(link);
    await page.getByRole('heading', { name: 'Verify your email' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Email verified successfully. You can now log in.' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'verify-email-1280');
    // The token is spent: the same link again is refused with the service's words.
    await page.reload();
    await page.getByRole('alert').filter({ hasText: 'Invalid or expired verification token' }).waitFor();
    await page.getByRole('link', { name: 'Continue to the dashboard' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  });

  it('invites a member with a generated password shown once; the member signs in with it and sees read-only controls', async () => {
    await go('members');
    const self = page.getByRole('row').filter({ hasText: adminEmail });
    await self.getByText('you').waitFor();
    expect(await self.textContent()).toContain('Admin');
    await invite(memberEmail, 'member');
    const shown = page.getByTestId('invited').locator('code');
    const password = (await shown.textContent()) ?? '';
    expect(password).toMatch(/^[A-Za-z0-9!@#$%^&*]{16}$/);
    await page.getByTestId('invited').getByText('shown only once').waitFor();
    await page.getByRole('button', { name: 'Copy password' }).click();
    await page.getByText('Copied.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(password);
    const row = page.getByRole('row').filter({ hasText: memberEmail });
    await row.getByText('Member', { exact: true }).waitFor();
    await screenshot(page, 'members-invited-1280');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    expect(await page.getByText(password).count()).toBe(0);

    // Inviting a current member is refused with the service's message.
    await page.getByLabel('Email', { exact: true }).fill(memberEmail);
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByRole('alert').filter({ hasText: 'User is already a member of this merchant' }).waitFor();

    const member = await harness.newPage(1280, 900);
    try {
      await member.page.goto('/dashboard/');
      await signIn(member.page, memberEmail, password);
      await member.page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
      await member.page.goto('/dashboard/#/members');
      await member.page.getByRole('row').filter({ hasText: adminEmail }).waitFor();
      await member.page.getByText('You are a member of this merchant (read-only)').waitFor();
      expect(await member.page.getByRole('button', { name: 'Invite' }).isDisabled()).toBe(true);
      expect(await member.page.getByLabel('Email', { exact: true }).isDisabled()).toBe(true);
      expect(await member.page.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
      expect(await member.page.getByRole('row').filter({ hasText: memberEmail }).getByText('you').count()).toBe(1);
      await screenshot(member.page, 'members-read-only-1280');
      expect(await seriousViolations(member.page)).toEqual([]);
      expect(member.problems).toEqual([]);
    } finally {
      await member.context.close();
    }

    await removeMember(memberEmail);
    expect((await (await apiLogin(memberEmail, password)).json()) as { merchant_id: string }).toMatchObject({ merchant_id: '' });
  });

  it('says plainly when the service refuses a change with 403 (an admin demoted under an open page)', async () => {
    await go('members');
    await invite(secondAdminEmail, 'admin');
    const password = (await page.getByTestId('invited').locator('code').textContent()) ?? '';
    const second = await harness.newPage(1280, 900);
    try {
      await second.page.goto('/dashboard/');
      await signIn(second.page, secondAdminEmail, password);
      await second.page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
      await second.page.goto('/dashboard/#/members');
      await second.page.getByRole('row').filter({ hasText: secondAdminEmail }).getByText('Admin').waitFor();
      expect(await second.page.getByRole('button', { name: 'Invite' }).isEnabled()).toBe(true);

      // The first admin demotes the second (remove, invite back as member): an existing user keeps their password.
      await removeMember(secondAdminEmail);
      await invite(secondAdminEmail, 'member');
      await page.getByTestId('invited').getByText('already had an account').waitFor();

      await second.page.getByLabel('Email', { exact: true }).fill(`someone-${stamp}@example.com`);
      await second.page.getByRole('button', { name: 'Invite' }).click();
      await second.page.getByRole('alert').filter({ hasText: 'Not allowed: only an admin of this merchant can invite or remove members' }).waitFor();
      expect(await second.page.getByRole('alert').textContent()).toContain("role 'member' can only read");
      // The page re-reads the list: the live role disables the controls.
      await second.page.getByText('You are a member of this merchant (read-only)').waitFor();
      expect(await second.page.getByRole('button', { name: 'Invite' }).isDisabled()).toBe(true);
      await screenshot(second.page, 'members-refused-1280');
      // Still signed in: a 403 is not the end of the session.
      await second.page.getByRole('button', { name: 'Sign out' }).waitFor();
    } finally {
      await second.context.close();
    }
  });

  it('changes the password with the policy and the current password checked; other sessions end and the old password fails', async () => {
    const other = await apiLogin(adminEmail, adminPassword);
    const otherToken = ((await other.json()) as { token: string }).token;
    await go('account');
    await page.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();
    await page.getByText(adminEmail).first().waitFor();

    await page.getByLabel('Current password').fill('not-my-password-at-all');
    await page.getByLabel('New password', { exact: true }).fill(changedPassword);
    await page.getByLabel('Confirm new password').fill(changedPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    // A wrong current password is the form's error, not the end of this session.
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();

    await page.getByLabel('Current password').fill(adminPassword);
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('Confirm new password').fill('short');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').filter({ hasText: 'Password must be at least 10 characters long' }).waitFor();

    await page.getByLabel('New password', { exact: true }).fill(changedPassword);
    await page.getByLabel('Confirm new password').fill(`${changedPassword}x`);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').filter({ hasText: 'The new password and its confirmation differ.' }).waitFor();

    await page.getByLabel('Confirm new password').fill(changedPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('status').filter({ hasText: 'Every other session of your account has been signed out' }).waitFor();
    await screenshot(page, 'account-changed-1280');
    expect(await seriousViolations(page)).toEqual([]);

    const refused = await fetch(`${harness.url}/auth/me`, { headers: { authorization: `Bearer ${otherToken}` } });
    expect(refused.status).toBe(401);
    // This tab's session goes on.
    await go('members');
    await page.getByRole('row').filter({ hasText: adminEmail }).waitFor();

    await signOut();
    await signIn(page, adminEmail, adminPassword);
    await page
      .getByRole('alert')
      .filter({ hasText: /invalid|incorrect/i })
      .waitFor();
    adminPassword = changedPassword;
    await page.getByLabel('Password', { exact: true }).fill(adminPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Signing in keeps the page of the URL.
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
  });

  it('resets a forgotten password from the mailed link: neutral answer, new password, sign-in; the link works once', async () => {
    await signOut();
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'forgot-password-1280');

    // An unknown address gets the very same answer, and no mail.
    await page.getByLabel('Email').fill(`nobody-${stamp}@example.com`);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    const unknownAnswer = await page.getByRole('status').filter({ hasText: 'If an account exists for that email' }).textContent();
    await page.reload();
    await page.getByLabel('Email').fill(adminEmail);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    const knownAnswer = await page.getByRole('status').filter({ hasText: 'If an account exists for that email' }).textContent();
    expect(knownAnswer).toBe(unknownAnswer);

    const link = await mailedLink(adminEmail, 'password_reset', 'reset-password');
    expect(
      outbox()
        .filter((mail) => mail.purpose === 'password_reset')
        .map((mail) => mail.to),
    ).toEqual([adminEmail]);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill('password123');
    await page.getByLabel('Confirm new password').fill('password123');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('alert').filter({ hasText: 'Password is too common' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill(resetPassword);
    await page.getByLabel('Confirm new password').fill(resetPassword);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('status').filter({ hasText: 'Password reset successfully. You can now sign in with your new password.' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'reset-password-done-1280');
    await page.getByRole('link', { name: 'Sign in', exact: true }).click();

    await signIn(page, adminEmail, changedPassword);
    await page
      .getByRole('alert')
      .filter({ hasText: /invalid|incorrect/i })
      .waitFor();
    await page.getByLabel('Password', { exact: true }).fill(resetPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    adminPassword = resetPassword;

    // The same link again: the token is spent.
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('another-fine-password-31');
    await page.getByLabel('Confirm new password').fill('another-fine-password-31');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid or expired password reset token' }).waitFor();
    await page.getByRole('link', { name: 'Ask for a new link' }).waitFor();
    expect((await apiLogin(adminEmail, resetPassword)).status).toBe(200);
  });

  it('renders the new pages at 1280 px and at phone width, without sideways scrolling or serious accessibility violations', async () => {
    const stored = await page.evaluate(() => sessionStorage.getItem('switchyard.session'));
    const phone = await harness.newPage(390, 844);
    await phone.context.addInitScript((session) => sessionStorage.setItem('switchyard.session', session), stored ?? '');
    try {
      for (const [target, width] of [
        [page, 1280],
        [phone.page, 390],
      ] as const) {
        for (const path of ['members', 'account', 'forgot-password', 'reset-password?token=made-up', 'verify-email?token=made-up']) {
          await target.goto(`/dashboard/#/${path}`);
          await target.getByRole('heading', { level: 1 }).waitFor();
          await target.waitForFunction(() => (globalThis as unknown as PageGlobals).document.querySelector('.state-loading') === null);
          const overflow = await target.evaluate(() => {
            const root = (globalThis as unknown as PageGlobals).document.documentElement;
            return root.scrollWidth - root.clientWidth;
          });
          expect(overflow, `${path} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
          expect(await seriousViolations(target), `${path} at ${width} px`).toEqual([]);
          await screenshot(target, `team-${path.split('?')[0]}-${width}`);
        }
      }
      expect(phone.problems).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });

  it('raised no page errors and no CSP refusals', () => {
    expect(problems).toEqual([]);
  });
});
