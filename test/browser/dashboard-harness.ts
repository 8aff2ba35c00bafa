import type { AxeResults, RunOptions } from 'axe-core';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startServer, type RunningServer } from '../../cli/start-service.js';
import { loadConfig } from '../../src/config/load-config.js';
import { startFakeHttpServer, type FakeHttpServer } from '../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatCompletionStream } from '../fixtures/providers/openai-wire.js';

/** Debian's chromium (deploy/local/chromium.sh installs it); Playwright's own download is not available. */
const chromiumCandidates = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

export const screenshotDir = fileURLToPath(new URL('../../.run/screenshots', import.meta.url));
export const adminSecret = 'browser-admin-secret-0123456789abcdef';
export const operatorPassword = 'violet-harbour-lantern-42';

/** What the fake OpenAI answers a streamed playground prompt with, in three deltas. */
export const streamedDeltas = ['Routing ', 'is ', 'learning.'];

export interface DashboardHarness {
  readonly url: string;
  readonly server: RunningServer;
  readonly browser: Browser;
  readonly provider: FakeHttpServer;
  /** The service's DATA_DIR (its mail outbox is `<dataDir>/outbox`). */
  readonly dataDir: string;
  /** A fresh browser context; `problems` collects page errors and console errors (CSP refusals show there). */
  newPage(width: number, height: number): Promise<{ context: BrowserContext; page: Page; problems: string[] }>;
  close(): Promise<void>;
}

function chromiumPath(): string {
  const found = chromiumCandidates.find((path) => existsSync(path));
  // A missing browser fails the run: CI installs it (scripts/run-tests.sh → deploy/local/chromium.sh).
  if (found === undefined) throw new Error(`chromium not found at ${chromiumCandidates.join(' or ')}: run deploy/local/chromium.sh install`);
  return found;
}

/**
 * The service as `switchyard serve` runs it in embedded mode (in-process workers, chDB analytics,
 * journaled state in a temp DATA_DIR) on a free port, its toolkit's OpenAI provider pointed at a
 * local fake speaking OpenAI's wire format, and a headless chromium. `options.env` adds settings
 * (docs/configuration.md) to the service's environment.
 */
export async function startDashboardHarness(options: { readonly env?: Readonly<Record<string, string>> } = {}): Promise<DashboardHarness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sy-dashboard-'));
  const provider = await startFakeHttpServer((request) => {
    const body = request.body as { model: string; stream?: boolean };
    // Two thirds of every prompt read from the provider's prompt cache: the LLM usage page shows it.
    const usage = { promptTokens: 9, completionTokens: 3, cachedTokens: 6 };
    return body.stream === true
      ? chatCompletionStream({ model: body.model, deltas: streamedDeltas, usage })
      : chatCompletion({ model: body.model, content: 'Routing is learning.', usage });
  });
  const serviceDataDir = join(dataDir, 'data');
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: serviceDataDir,
    ADMIN_SECRET: adminSecret,
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'browser-jwt-secret-0123456789abcdef-0123456789',
    ...options.env,
  });
  const server = await startServer(config, pino({ level: 'silent' }), {
    toolkit: { cwd: dataDir, env: { OPENAI_API_KEY: 'sk-browser-fake', OPENAI_BASE_URL: `${provider.url}/v1` } },
  });
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  mkdirSync(screenshotDir, { recursive: true });
  return {
    url: server.url,
    server,
    browser,
    provider,
    dataDir: serviceDataDir,
    async newPage(width, height) {
      const context = await browser.newContext({ viewport: { width, height }, baseURL: server.url });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        // A refused request is logged by the browser too; the tests provoke some (a wrong password).
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(`console error: ${message.text()}`);
      });
      return { context, page, problems };
    },
    async close() {
      await browser.close();
      await server.stop();
      await provider.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * axe-core's source, as @axe-core/playwright (the declared dependency) resolves it: the same engine
 * and version that package would inject.
 */
const axeSource = (createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'))('axe-core') as { readonly source: string }).source;
const axeOptions: RunOptions = { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] };

/**
 * Serious and critical axe violations of the page as it is now (WCAG 2.1 A and AA rules, every node
 * of every violation). axe is injected once per document (a route change in the dashboard keeps it)
 * and run in the page: @axe-core/playwright's analyze() injects it anew on every call and finishes
 * each run in a fresh blank page, about 1 s a page against 0.15 s here, with the same violations
 * (the dashboard has no frames to reach into). `resultTypes: ['violations']` spares the details of
 * passing rules, which nothing reads.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate('typeof window.axe?.run === "function"'))) await page.evaluate(axeSource);
  const result = await page.evaluate(
    (options) =>
      (globalThis as unknown as { axe: { run(context: unknown, options: RunOptions): Promise<AxeResults> } }).axe.run(
        (globalThis as unknown as { document: unknown }).document,
        options,
      ),
    axeOptions,
  );
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });
}

/** What the dashboard keeps of a signed-in operator (sessionStorage `switchyard.session`). */
export interface DashboardSession {
  readonly token: string;
  readonly merchantId: string;
}

/** The session the dashboard in `page` holds now. */
export async function dashboardSession(page: Page): Promise<DashboardSession> {
  const stored = await page.evaluate(() => sessionStorage.getItem('switchyard.session'));
  return JSON.parse(stored ?? '{}') as DashboardSession;
}

/**
 * Signs a new operator up through the dashboard's own forms and onboards their first merchant, so
 * `page` ends signed in on the Overview; answers the session the dashboard then holds.
 */
export async function signUpWithMerchant(
  page: Page,
  account: { readonly email: string; readonly merchantName: string; readonly password?: string },
): Promise<DashboardSession> {
  await page.goto('/dashboard/');
  await page.getByRole('button', { name: 'Create one' }).click();
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password ?? operatorPassword);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Create your merchant' }).waitFor();
  await page.getByLabel('Merchant name').fill(account.merchantName);
  await page.getByRole('button', { name: 'Create merchant' }).click();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  return dashboardSession(page);
}

/**
 * A page for an operator whose browser is in New York (a time shown in the browser's zone without
 * saying so is caught), 1,280 px wide; page errors and console errors are collected into `problems`.
 */
export async function operatorPage(harness: DashboardHarness, problems: string[]): Promise<{ readonly context: BrowserContext; readonly page: Page }> {
  const context = await harness.browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: harness.url, timezoneId: 'America/New_York' });
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(`console error: ${message.text()}`);
  });
  return { context, page };
}

function zonedParts(ms: number, zone: string, options: Intl.DateTimeFormatOptions): Record<string, string> {
  const format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', ...options });
  return Object.fromEntries(format.formatToParts(new Date(ms)).map((part) => [part.type, part.value]));
}

/** A moment as the dashboard writes it, with its zone: `2026-11-25 19:00:00 Asia/Tokyo`. */
export function zonedTime(ms: number, zone: string): string {
  const p = zonedParts(ms, zone, { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return `${p['year']}-${p['month']}-${p['day']} ${p['hour']}:${p['minute']}:${p['second']} ${zone}`;
}

/** A bucket start as the dashboard labels a day-spanning axis, in a named zone: `11-29 19:30`. */
export function zonedAxisLabel(ms: number, zone: string): string {
  const p = zonedParts(ms, zone, { month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });
  return `${p['month']}-${p['day']} ${p['hour']}:${p['minute']}`;
}
