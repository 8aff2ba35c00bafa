import Fastify, { type FastifyInstance } from 'fastify';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dashboardCsp, registerDashboard } from '../../api/plugins/dashboard.js';

/** The dashboard plugin over a build directory made here (the browser project tests the real build). */
describe('the dashboard files', () => {
  const dirs: string[] = [];
  const apps: FastifyInstance[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function appOver(files: Record<string, string>): Promise<FastifyInstance> {
    const root = mkdtempSync(join(tmpdir(), 'sy-dashboard-files-'));
    dirs.push(root);
    for (const [name, body] of Object.entries(files)) {
      mkdirSync(join(root, name, '..'), { recursive: true });
      writeFileSync(join(root, name), body);
    }
    const app = Fastify();
    apps.push(app);
    await registerDashboard(app, { root });
    return app;
  }

  it('answers 503 naming the build command when the dashboard is not built', async () => {
    const app = await appOver({});
    const response = await app.inject({ method: 'GET', url: '/dashboard/' });
    expect(response.statusCode).toBe(503);
    expect(response.body).toContain('npm run build:dashboard');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('serves index.html revalidated and hashed assets immutable, each under the strict CSP', async () => {
    const app = await appOver({
      'index.html': '<!doctype html><script type="module" src="/dashboard/assets/index-abc123.js"></script>',
      'assets/index-abc123.js': 'export {};',
    });
    const index = await app.inject({ method: 'GET', url: '/dashboard/' });
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(index.headers['content-security-policy']).toBe(dashboardCsp);
    const asset = await app.inject({ method: 'GET', url: '/dashboard/assets/index-abc123.js' });
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const revalidated = await app.inject({ method: 'GET', url: '/dashboard/', headers: { 'if-none-match': String(index.headers['etag']) } });
    expect(revalidated.statusCode).toBe(304);
  });

  it('serves the page at /dashboard too and answers 404 for any name the build does not hold', async () => {
    const app = await appOver({ 'index.html': '<!doctype html>' });
    const bare = await app.inject({ method: 'GET', url: '/dashboard' });
    expect(bare.statusCode).toBe(200);
    expect(bare.body).toBe('<!doctype html>');
    for (const url of ['/dashboard/assets/nope.js', '/dashboard/../package.json', '/dashboard/%2e%2e/%2e%2e/package.json', '/dashboard/index.html/x']) {
      expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });

  it('keeps the policy free of inline script, eval and foreign origins', () => {
    expect(dashboardCsp).toContain("script-src 'self'");
    expect(dashboardCsp).toContain("connect-src 'self'");
    expect(dashboardCsp).toContain("frame-ancestors 'none'");
    expect(dashboardCsp).not.toMatch(/unsafe-|\*|https?:/);
  });
});
