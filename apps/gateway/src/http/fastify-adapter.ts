import { randomUUID } from 'node:crypto';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { errorEnvelope } from '@switchboard/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Metrics, serveMetrics } from '@switchboard/observability';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config/gateway.config';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;
const PLAIN_HTTP_ALLOWED = new Set(['/healthz', '/readyz']);

/**
 * Fastify as both gateway servers use it: body limit, trusted proxies, request ids, TLS, HTTPS enforcement and
 * an access log line per request. What Fastify rejects before a route runs (bad JSON, too large) reaches Nest's
 * exception layer and so the ErrorEnvelopeFilter.
 */
export function createFastifyAdapter(config: GatewayConfig, logger: Logger, options: { server: 'public' | 'admin' }): FastifyAdapter {
  const enforceHttps = options.server === 'public';
  const adapter = new FastifyAdapter({
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    ...(config.tls ? { https: { cert: config.tls.cert, key: config.tls.key } } : {}),
    requestIdHeader: false,
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : `req_${randomUUID()}`;
    },
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  });
  const fastify = adapter.getInstance() as unknown as FastifyInstance;

  fastify.addHook('onRequest', async (request, reply) => {
    void reply.header('X-Request-Id', request.id);
    if (enforceHttps && config.production && !config.tls && !isHttps(request) && !PLAIN_HTTP_ALLOWED.has(request.url)) {
      return reply.status(400).send(errorEnvelope('invalid_request', 'Requests must use HTTPS.'));
    }
    // Bodies are JSON (spec part 1): a form or text body is refused before any parser could accept it.
    if (hasBody(request) && !isJson(request.headers['content-type'])) {
      return reply.status(415).send(errorEnvelope('unsupported_media_type', 'Send the body as application/json.'));
    }
  });
  fastify.addHook('onResponse', async (request, reply) => {
    // The route pattern, never the raw path: ids in paths would make every request its own series.
    const route = request.routeOptions?.url ?? 'unmatched';
    Metrics.httpRequestDuration().record(reply.elapsedTime / 1000, { server: options.server, method: request.method, route, status_code: reply.statusCode });
    logger.info({ request_id: request.id, method: request.method, route, status: reply.statusCode, duration_ms: Math.round(reply.elapsedTime) }, 'request');
  });
  if (options.server === 'admin') {
    // Prometheus scrapes the operator port (internal only); no token, like the services' HEALTH_PORT.
    fastify.get('/metrics', (request, reply) => {
      void reply.hijack();
      serveMetrics(request.raw, reply.raw);
    });
  }
  return adapter;
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

function isJson(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || (type !== undefined && /^application\/[a-z0-9.+-]+\+json$/.test(type));
}

function isHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}
