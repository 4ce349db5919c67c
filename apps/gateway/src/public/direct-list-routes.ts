import type { ValidationPipe } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { context } from '@opentelemetry/api';
import { ListCallsQuery, ListNumbersQuery } from '@switchboard/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { RequestAuthenticator, authorizeApiKey, callerOf, type CallerOptions } from '../auth';
import type { ErrorEnvelopeFilter } from '../http/error-envelope.filter';
import { endRequestSpan, startRequestSpan } from '../http/request-span.interceptor';
import { CallsHttpController } from './calls.http.controller';
import { livemodeAnswer } from './livemode.interceptor';
import { NumbersHttpController } from './numbers.http.controller';

/** One list route as its controller declares it: the query's DTO and the method that answers it. */
interface DirectRoute {
  query: new () => object;
  list(query: object, caller: CallerOptions): Promise<unknown>;
}

/**
 * The two most requested routes, `GET /v1/numbers` and `GET /v1/calls`, answered outside Nest's per-request
 * pipeline (docs/adr/0096). Their controllers still declare them (the route, the OpenAPI description, the method
 * that asks the service), and Nest still registers them; when it does, the route's handler is replaced by one that
 * runs the same steps as plain calls, in Nest's order: the API key guard's check, the request span, the query's
 * validation by the same pipe, the controller's method, `livemode`, and any error answered by the same filter.
 * Fastify's hooks (request id, `Cache-Control`, hostile input, the access log) run as for every route.
 * `checkServed`, after the app's init: throws unless both routes were taken over (a Nest that registered them
 * another way would otherwise leave them in its pipeline unnoticed).
 */
export function serveListsDirectly(
  app: NestFastifyApplication,
  steps: { validation: ValidationPipe; errors: ErrorEnvelopeFilter },
): { checkServed(): void } {
  const numbers = app.get(NumbersHttpController);
  const calls = app.get(CallsHttpController);
  const routes = new Map<string, DirectRoute>([
    ['/v1/numbers', { query: ListNumbersQuery, list: (query, caller) => numbers.list(query, caller) }],
    ['/v1/calls', { query: ListCallsQuery, list: (query, caller) => calls.list(query, caller) }],
  ]);
  const authenticator = app.get(RequestAuthenticator);
  const served = new Set<string>();
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  fastify.addHook('onRoute', (options: RouteOptions) => {
    const route = routes.get(options.url ?? '');
    if (!route || !isGetOrHead(options.method)) return;
    served.add(options.url);
    options.handler = async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        await authorizeApiKey(authenticator, request, reply);
      } catch (error) {
        steps.errors.answer(error, request, reply);
        return reply;
      }
      const { span, active } = startRequestSpan(request);
      return context.with(active, async () => {
        try {
          const query = (await steps.validation.transform(request.query ?? {}, {
            type: 'query',
            metatype: route.query,
          })) as object;
          const body = await route.list(query, callerOf(request));
          endRequestSpan(span, { status: reply.statusCode });
          return reply.send(livemodeAnswer(body, request.auth?.accountId));
        } catch (error) {
          endRequestSpan(span, { error });
          steps.errors.answer(error, request, reply);
          return reply;
        }
      });
    };
  });
  return {
    checkServed() {
      const missing = [...routes.keys()].filter((url) => !served.has(url));
      if (missing.length > 0) throw new Error(`routes not served outside Nest's pipeline: ${missing.join(', ')}`);
    },
  };
}

function isGetOrHead(method: RouteOptions['method']): boolean {
  return (Array.isArray(method) ? method : [method]).some((one) => one === 'GET' || one === 'HEAD');
}
