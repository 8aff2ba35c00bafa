import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface DashboardOptions {
  /** The built dashboard (Vite's output); default `<package root>/dist/dashboard`, written by `npm run build:dashboard`. */
  readonly root?: string;
}

/**
 * The dashboard's Content-Security-Policy: only this origin's scripts, styles, images and API
 * (connect-src 'self'); no inline script or style element, no eval, no framing, no plugins.
 * The built page has no inline code (vite.config.ts turns off the module-preload polyfill),
 * Preact and Chart.js set styles through the CSSOM, which style-src does not govern.
 */
export const dashboardCsp = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** 1 year: the longest max-age caches honour; hashed names change with their content, so they never go stale. */
const immutable = 'public, max-age=31536000, immutable';

interface StaticFile {
  readonly body: Buffer;
  readonly type: string;
  readonly etag: string;
  readonly cacheControl: string;
}

/** The directory holding package.json, found upward from this module (api/plugins in source, dist/api/plugins built). */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('api/plugins/dashboard.ts: no package.json above this module');
    dir = parent;
  }
  return dir;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/**
 * Every file of the build, read once at start: the build is a few hundred kB, and serving only the
 * names found here means a request path never reaches the file system (no traversal to guard).
 */
function loadBuild(root: string): Map<string, StaticFile> | undefined {
  if (!existsSync(join(root, 'index.html'))) return undefined;
  const files = new Map<string, StaticFile>();
  for (const path of walk(root)) {
    const name = relative(root, path).split(sep).join('/');
    const body = readFileSync(path);
    files.set(name, {
      body,
      type: contentTypes[extname(name)] ?? 'application/octet-stream',
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
      // Vite names everything under assets/ by its content hash; the rest (index.html) must be revalidated.
      cacheControl: name.startsWith('assets/') ? immutable : 'no-cache',
    });
  }
  return files;
}

function securityHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', dashboardCsp)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cross-origin-opener-policy', 'same-origin');
}

/**
 * The operator dashboard (dashboard/, built by Vite) as static files under /dashboard/, public like
 * /docs: the page holds no data, every read goes through the API with the operator's session token.
 * Without a build, /dashboard/ answers 503 naming the command that makes one.
 *
 * @remarks Not in OpenAPI (`hide`): these are files, not API operations. No SPA fallback: the
 * dashboard routes in the URL fragment, so any other path is a 404.
 */
export async function registerDashboard(app: FastifyInstance, options: DashboardOptions = {}): Promise<void> {
  const root = options.root ?? join(packageRoot(), 'dist', 'dashboard');
  const files = loadBuild(root);
  if (files === undefined) app.log.warn({ root }, 'dashboard not built: /dashboard answers 503 (run npm run build:dashboard)');
  const route = { schema: { hide: true }, config: { auth: 'none' as const } };

  const serve = async (name: string, request: FastifyRequest, reply: FastifyReply) => {
    securityHeaders(reply);
    if (files === undefined) {
      return reply
        .code(503)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send('The dashboard is not built. Run `make build` (or `npm run build:dashboard`) and restart the service.\n');
    }
    const file = files.get(name);
    if (file === undefined) return reply.code(404).header('cache-control', 'no-cache').type('text/plain; charset=utf-8').send('Not found\n');
    reply.header('cache-control', file.cacheControl).header('etag', file.etag).type(file.type);
    if (request.headers['if-none-match'] === file.etag) return reply.code(304).send();
    return reply.send(file.body);
  };
  // The page's asset URLs are absolute (/dashboard/assets/…), so /dashboard serves it as /dashboard/ does, without a redirect.
  app.get('/dashboard', route, async (request, reply) => serve('index.html', request, reply));
  app.get<{ Params: { '*': string } }>('/dashboard/*', route, async (request, reply) =>
    serve(request.params['*'] === '' ? 'index.html' : request.params['*'], request, reply),
  );
}
