import { randomUUID } from 'node:crypto';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { DEFAULT_RETRY_AFTER_SECONDS, errorEnvelope } from '@switchboard/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Metrics, serveMetrics } from '@switchboard/observability';
import type { Logger } from '@switchboard/observability';
import { isAllowed } from '../auth/ip-allowlist';
import type { GatewayConfig } from '../config/gateway.config';
import { closeConnectionsOnClose } from './close-connections';
import { limitConnections, nodeServerOptions } from './connection-limits';
import { MAX_PARAM_LENGTH, answerClientError, answerFrameworkError } from './framework-errors';
import { describeUnusableParameter } from './hostile-input';
import { createJsonBodyParser } from './json-body-parser';
import { endRequestSpan, traceRequests } from './request-span';
import { PROVIDER_WEBHOOKS_PATH } from './provider-webhooks-path';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;
const PLAIN_HTTP_ALLOWED = new Set(['/healthz', '/readyz']);
/** What providers send: Stripe and Retell post JSON, Twilio posts forms. */
const PROVIDER_WEBHOOK_MEDIA_TYPES = new Set(['application/json', 'application/x-www-form-urlencoded']);
/**
 * Routes whose path parameter names a page, where any that names none answers the same 404 (nothing to enumerate):
 * the claimant page's API (a slug outside PUBLIC_SLUG_PATTERN, `%00` included) and the console's pages and files
 * (console-static.ts refuses NUL and `..` itself). Their path is not refused here with 400 for a NUL.
 */
const PATHS_JUDGED_BY_THEIR_ROUTE = new Set([
  '/claim/api/locations/:slug',
  '/claim/api/locations/:slug/claims',
  '/console/*',
]);

/**
 * Fastify as both gateway servers use it: body limit, trusted proxies, request ids, TLS, HTTPS enforcement,
 * connection time-outs and caps (connection-limits.ts, ADR 0055), a prompt close (close-connections.ts), one trace span (request-span.ts, ADR 0117) and an
 * access log line per request. What Fastify rejects while reading a request (bad JSON, too large) reaches
 * Nest's exception layer and so the ErrorEnvelopeFilter; what its router and Node's HTTP parser refuse before that
 * (a malformed URL, an over-long path parameter, broken framing) is answered by framework-errors.ts, in the same
 * envelope. Text no route can use (NUL, unpaired surrogates, deep JSON) is refused here for every route
 * (hostile-input.ts). Every answer carries `Cache-Control: no-store`: API answers are per caller, and some hold
 * secrets (a new API key, a number's webhook secret) that no cache may keep.
 */
export function createFastifyAdapter(
  config: GatewayConfig,
  logger: Logger,
  options: { server: 'public' | 'admin' },
): FastifyAdapter {
  const enforceHttps = options.server === 'public';
  const serverOptions = nodeServerOptions(config.http);
  const adapter = new FastifyAdapter({
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    ...(config.tls
      ? { https: { cert: config.tls.cert, key: config.tls.key, ...serverOptions } }
      : { http: serverOptions }),
    // Fastify sets these two on the server after creating it (0, never, and 72 s by default): the same values.
    requestTimeout: config.http.requestTimeoutMs,
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    requestIdHeader: false,
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : `req_${randomUUID()}`;
    },
    // Fastify's own 503 while closing is outside the envelope; the onRequest hook below answers it instead.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  });
  const fastify = adapter.getInstance<FastifyInstance>();
  traceRequests(fastify);
  const isTrustedProxy = (address: string) =>
    config.trustedProxies.length > 0 && isAllowed(config.trustedProxies, address);
  limitConnections(fastify.server, config.http, { tls: Boolean(config.tls), isTrustedProxy });
  // A closing server ends its connections itself: Node's close would wait up to the keep-alive time-out on some.
  closeConnectionsOnClose(fastify, { tls: Boolean(config.tls) });
  // Registered through Nest so that Nest does not put its default JSON parser in its place at init. Nest's `rawBody`
  // app option reaches only the parsers Nest registers itself, so this one keeps the bytes as `rawBody` on the public
  // server, for the provider webhooks verified over them. It parses none of theirs: their verifier parses once the
  // signature holds, and refuses what no column can hold with its own message (ADR 0083).
  const parseJson = createJsonBodyParser(fastify);
  adapter.useBodyParser(
    'application/json',
    options.server === 'public',
    { bodyLimit: config.bodyLimitBytes },
    (request, body, done) =>
      isProviderWebhook(request, options.server) ? done(null, body) : parseJson(request, body, done),
  );
  // A route's own body limit, declared with `@RouteConfig({ bodyLimit })`: Nest hands Fastify a route's `config`,
  // not its `bodyLimit`. It applies to every parser of the route (provider webhooks: 512 KiB, ADR 0083).
  fastify.addHook('onRoute', (route) => {
    const { bodyLimit }: { bodyLimit?: unknown } = route.config ?? {};
    if (typeof bodyLimit === 'number') route.bodyLimit = bodyLimit;
  });

  let closing = false;
  // eslint-disable-next-line @typescript-eslint/require-await -- Fastify's hook form without a `done` callback
  fastify.addHook('preClose', async () => {
    closing = true;
  });

  fastify.addHook('onRequest', async (request, reply) => {
    void reply.header('X-Request-Id', request.id);
    void reply.header('Cache-Control', 'no-store');
    // A request that arrives on a kept-alive connection while the server drains: another replica should take it.
    if (closing) {
      return reply
        .status(503)
        .header('Connection', 'close')
        .header('Retry-After', String(DEFAULT_RETRY_AFTER_SECONDS.service_unavailable))
        .send(errorEnvelope('service_unavailable', 'The gateway is shutting down; send the request again.'));
    }
    if (request.raw.httpVersion === '1.1' && !request.headers.host) {
      return reply.status(400).send(errorEnvelope('invalid_request', 'HTTP/1.1 requests need a Host header.'));
    }
    if (enforceHttps && config.production && !config.tls && !isHttps(request) && !PLAIN_HTTP_ALLOWED.has(request.url)) {
      return reply.status(400).send(errorEnvelope('invalid_request', 'Requests must use HTTPS.'));
    }
    // The claimant page's routes take small bodies only (docs/adr/0079): refused before a byte is read.
    if (
      options.server === 'public' &&
      request.url.startsWith('/claim/') &&
      Number(request.headers['content-length'] ?? 0) > config.claimantBodyLimitBytes
    ) {
      return reply
        .status(413)
        .send(errorEnvelope('payload_too_large', `A claim is at most ${config.claimantBodyLimitBytes} bytes.`));
    }
    // Bodies are JSON (spec part 1): a form or text body is refused before any parser could accept it. Provider
    // webhooks are the providers' formats, JSON or (Twilio's) forms, the two media types whose parsers keep the raw
    // bytes their signatures are checked over (ADR 0083); any other would reach the controller without them.
    if (hasBody(request) && isProviderWebhook(request, options.server)) {
      if (!PROVIDER_WEBHOOK_MEDIA_TYPES.has(mediaTypeOf(request.headers['content-type']) ?? '')) {
        return reply
          .status(415)
          .send(
            errorEnvelope(
              'unsupported_media_type',
              'Send provider webhooks as application/json or application/x-www-form-urlencoded.',
            ),
          );
      }
    } else if (hasBody(request) && !isJson(request.headers['content-type'])) {
      return reply.status(415).send(errorEnvelope('unsupported_media_type', 'Send the body as application/json.'));
    }
  });
  // After parsing, before guards, pipes and handlers: path parameters and query values (the body was checked by
  // its parser). A route that answers 404 for any address naming nothing judges its own path (issue 47).
  fastify.addHook('preValidation', async (request, reply) => {
    const ownPath = PATHS_JUDGED_BY_THEIR_ROUTE.has(request.routeOptions?.url ?? '');
    const problem = describeUnusableParameter(ownPath ? {} : request.params, request.query);
    if (problem) return reply.status(400).send(errorEnvelope('invalid_request', problem));
  });
  fastify.addHook('onResponse', async (request, reply) => {
    // The route pattern, never the raw path: ids in paths would make every request its own series.
    const route = request.routeOptions?.url ?? 'unmatched';
    Metrics.httpRequestDuration().record(reply.elapsedTime / 1000, {
      server: options.server,
      method: request.method,
      route,
      status_code: reply.statusCode,
    });
    logger.info(
      {
        request_id: request.id,
        method: request.method,
        route,
        status: reply.statusCode,
        duration_ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
    endRequestSpan(request, reply.statusCode);
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

function isProviderWebhook(request: FastifyRequest, server: 'public' | 'admin'): boolean {
  return server === 'public' && request.url.startsWith(`${PROVIDER_WEBHOOKS_PATH}/`);
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

function mediaTypeOf(contentType: string | undefined): string | undefined {
  return contentType?.split(';')[0].trim().toLowerCase();
}

function isJson(contentType: string | undefined): boolean {
  const type = mediaTypeOf(contentType);
  return type === 'application/json' || (type !== undefined && /^application\/[a-z0-9.+-]+\+json$/.test(type));
}

function isHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}
