import { HttpStatus, type ValidationPipe } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { ErrorEnvelopeFilter } from './error-envelope.filter';

/** Nest's global steps that a route served outside its pipeline runs as plain calls. */
export interface DirectRouteSteps {
  validation: ValidationPipe;
  errors: ErrorEnvelopeFilter;
}

/**
 * One route as its controller declares it, with the steps Nest would run around it: its guard as a plain call, the
 * part of the request its DTO validates, the controller's method, and what becomes of its result.
 */
export interface DirectRoute {
  method: 'GET' | 'POST';
  url: string;
  /** The route's guard: throws (a `ServiceError`) to refuse the request. */
  authorize(request: FastifyRequest, reply: FastifyReply): void | Promise<void>;
  /** Where the input is read and the DTO that validates it, as the route's `@Query()` or `@Body()` does. */
  input: { from: 'query' | 'body'; type: new () => object };
  /** The controller's method (whose `@HttpCode` sets the answer's status, as in Nest). */
  handler: (...args: never[]) => unknown;
  /** Calls the controller's method with the validated input. */
  handle(input: object, request: FastifyRequest): Promise<unknown>;
  /** The answer's body from the method's result (default: the result), as the route's interceptors would make it. */
  answer?(result: unknown, request: FastifyRequest): unknown;
  /** `handle` resolves to the answer's JSON, already written (bytes): sent as it is, as `application/json`. */
  answersJson?: true;
}

/**
 * Serves `routes` outside Nest's per-request pipeline (docs/adr/0096, 0108): Nest still registers each route (its
 * controller declares it, with its OpenAPI description), and when it does, a Fastify `onRoute` hook replaces the
 * route's handler with one that runs the same steps as plain calls, in Nest's order: the guard, the input's validation
 * by the same pipe, the controller's method, the answer, and any error answered by the same filter. Fastify's hooks
 * (request id, the request's span, `Cache-Control`, HTTPS, hostile input, the access log) run as for every route.
 * A global guard, pipe or interceptor added to the app later does not reach these routes unless added here too.
 * Call before the app's `init()`; `checkServed`, after it, throws unless every route was taken over (a Nest that
 * registered one another way would otherwise leave it in its pipeline unnoticed).
 */
export function serveDirectly(
  app: NestFastifyApplication,
  steps: DirectRouteSteps,
  routes: DirectRoute[],
): { checkServed(): void } {
  const byKey = new Map(routes.map((route) => [`${route.method} ${route.url}`, route]));
  const served = new Set<DirectRoute>();
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  fastify.addHook('onRoute', (options: RouteOptions) => {
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    // A GET route's HEAD twin (Fastify's, or Nest's) is answered the same way.
    const route = methods
      .map((method) => byKey.get(`${method === 'HEAD' ? 'GET' : method} ${options.url}`))
      .find(Boolean);
    if (!route) return;
    served.add(route);
    options.handler = directHandler(route, steps, statusOf(route));
  });
  return {
    checkServed() {
      const missing = routes.filter((route) => !served.has(route)).map((route) => `${route.method} ${route.url}`);
      if (missing.length > 0) throw new Error(`routes not served outside Nest's pipeline: ${missing.join(', ')}`);
    },
  };
}

/** The status Nest would answer with: the method's `@HttpCode`, else 201 for a POST and 200 for anything else. */
export function statusOf(route: Pick<DirectRoute, 'method' | 'handler'>): number {
  const declared = Reflect.getMetadata(HTTP_CODE_METADATA, route.handler) as number | undefined;
  return declared ?? (route.method === 'POST' ? HttpStatus.CREATED : HttpStatus.OK);
}

/** What Fastify answers a serialised object with. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

function directHandler(route: DirectRoute, steps: DirectRouteSteps, status: number) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      await route.authorize(request, reply);
      const raw = route.input.from === 'query' ? (request.query ?? {}) : request.body;
      const input = (await steps.validation.transform(raw, {
        type: route.input.from,
        metatype: route.input.type,
      })) as object;
      const result = await route.handle(input, request);
      void reply.code(status);
      if (route.answersJson) void reply.type(JSON_CONTENT_TYPE);
      return reply.send(route.answer ? route.answer(result, request) : result);
    } catch (error) {
      steps.errors.answer(error, request, reply);
      return reply;
    }
  };
}
