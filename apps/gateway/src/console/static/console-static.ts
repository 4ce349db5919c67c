import { createReadStream, existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { errorEnvelope } from '@switchboard/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ConsoleConfig } from '../../config/gateway.config';

/**
 * The console's pages: no inline script or style, nothing from elsewhere, never framed. The API the pages call is on
 * the same origin (`connect-src 'self'`).
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Vite names what it builds into `assets/` by content hash: a changed file gets a new name, so it may be kept a year. */
export const ASSET_CACHE = 'public, max-age=31536000, immutable';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

const NOT_BUILT_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Console not built</title></head><body>' +
  '<h1>The console has not been built</h1><p>Run <code>npm run build</code> (it builds <code>apps/console</code>), ' +
  'or set <code>CONSOLE_DIST_DIR</code> to a built console, then reload this page.</p></body></html>\n';

/** What a path under /console/ is: an API path (not ours), a file of the build, or a client route of the page. */
export type ConsolePath = { kind: 'api' } | { kind: 'file'; file: string } | { kind: 'not_found' } | { kind: 'page' };

/**
 * Resolves a request path (already without its query) inside the built console. A path that is not a file of the
 * build is a client route (the single-page app's own URLs, e.g. `/console/accept-invite`) and gets index.html,
 * unless it looks like a file (its last segment has an extension) or is under `assets/`: a missing script must be a
 * 404, not a page. Nothing outside the directory is ever named (`..`, encoded or not, and NUL are refused).
 */
export function classifyConsolePath(distDir: string, path: string): ConsolePath {
  let relative: string;
  try {
    relative = decodeURIComponent(path.replace(/^\/console\/?/, ''));
  } catch {
    return { kind: 'not_found' };
  }
  if (relative === 'api' || relative.startsWith('api/')) return { kind: 'api' };
  if (relative === '' || relative === 'index.html') return { kind: 'page' };
  if (
    relative.includes('\0') ||
    relative.includes('\\') ||
    relative.split('/').some((segment) => segment === '..' || segment === '.')
  )
    return { kind: 'not_found' };
  const file = resolve(distDir, relative);
  if (!file.startsWith(distDir + sep)) return { kind: 'not_found' };
  const last = relative.split('/').pop() ?? '';
  if (relative.startsWith('assets/') || extname(last) !== '') return { kind: 'file', file };
  return { kind: 'page' };
}

function pageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('Content-Security-Policy', CONSOLE_CSP)
    .header('X-Content-Type-Options', 'nosniff')
    .header('X-Frame-Options', 'DENY')
    .header('Referrer-Policy', 'no-referrer');
}

async function sendFile(reply: FastifyReply, file: string, cacheControl: string): Promise<boolean> {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) return false;
  await reply
    .header('Content-Type', CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream')
    .header('Content-Length', String(info.size))
    .header('Cache-Control', cacheControl)
    .send(createReadStream(file));
  return true;
}

/**
 * Serves the built front-end at `/console/` on the public port (docs/adr/0080): hashed assets with a year's cache,
 * index.html with `no-store` for every client route, the pages under a strict Content-Security-Policy. Registered on
 * Fastify directly, beside Nest's routes: `/console/api/*` are Nest's (a more specific route wins), and an unknown
 * API path gets the API's 404 envelope, never the page. Until the console is built, `/console/` answers 503 saying how.
 */
export function serveConsoleStatic(app: NestFastifyApplication, config: Pick<ConsoleConfig, 'distDir'>): void {
  const fastify = app.getHttpAdapter().getInstance();
  const distDir = resolve(config.distDir);
  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const path = request.url.split('?')[0];
    if (path === '/console') return void (await reply.redirect('/console/', 308));
    const target = classifyConsolePath(distDir, path);
    if (target.kind === 'api') {
      return void (await reply
        .status(404)
        .header('Content-Type', 'application/json; charset=utf-8')
        .send(errorEnvelope('not_found', 'No such console API route.')));
    }
    pageHeaders(reply);
    if (!existsSync(resolve(distDir, 'index.html'))) {
      return void (await reply
        .status(503)
        .header('Content-Type', 'text/html; charset=utf-8')
        .header('Retry-After', '60')
        .send(NOT_BUILT_PAGE));
    }
    if (target.kind === 'file') {
      const cache = target.file.startsWith(resolve(distDir, 'assets') + sep) ? ASSET_CACHE : 'no-cache';
      if (await sendFile(reply, target.file, cache)) return;
      return void (await reply.status(404).header('Content-Type', 'text/plain; charset=utf-8').send('Not found\n'));
    }
    if (target.kind === 'not_found')
      return void (await reply.status(404).header('Content-Type', 'text/plain; charset=utf-8').send('Not found\n'));
    // index.html changes with every build and names the hashed assets: never cached.
    if (!(await sendFile(reply, resolve(distDir, 'index.html'), 'no-store')))
      await reply.status(503).header('Content-Type', 'text/html; charset=utf-8').send(NOT_BUILT_PAGE);
  };
  // `/console` and `/console/` are one route (the router ignores a trailing slash); the handler tells them apart.
  fastify.get('/console', handler);
  fastify.get('/console/*', handler);
}
