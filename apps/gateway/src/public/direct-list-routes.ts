import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { isTestAccount, ListCallsQuery, ListNumbersQuery } from '@switchboard/contracts';
import type { FastifyRequest } from 'fastify';
import { RequestAuthenticator, authorizeApiKey, callerOf, type CallerOptions } from '../auth';
import type { DirectRoute } from '../http/direct-routes';
import { CallsHttpController } from './calls.http.controller';
import { NumbersHttpController } from './numbers.http.controller';

/** A list route's controller: its `list` answers the validated query for the caller, as the service's JSON. */
interface Lister {
  list(query: never, caller: CallerOptions): Promise<Uint8Array>;
}

/**
 * The two most requested routes, `GET /v1/numbers` and `GET /v1/calls`, as `serveDirectly` answers them outside
 * Nest's per-request pipeline (docs/adr/0096): the API key guard's check, the query validated by its DTO, and the
 * controller's `list` asked with the key's mode, whose answer is the JSON the service wrote, `livemode` set by it as
 * the public API's interceptor would set it (docs/adr/0115): neither parsed nor serialised again here.
 */
export function directListRoutes(app: NestFastifyApplication): DirectRoute[] {
  const numbers = app.get(NumbersHttpController);
  const calls = app.get(CallsHttpController);
  const authenticator = app.get(RequestAuthenticator);
  const list = (url: string, query: new () => object, controller: Lister): DirectRoute => ({
    method: 'GET',
    url,
    authorize: (request, reply) => authorizeApiKey(authenticator, request, reply),
    input: { from: 'query', type: query },
    handler: controller.list,
    handle: (input, request) =>
      controller.list(input as never, { ...callerOf(request), livemode: livemodeOf(request) }),
    answersJson: true,
  });
  return [list('/v1/numbers', ListNumbersQuery, numbers), list('/v1/calls', ListCallsQuery, calls)];
}

/** The key's mode: behind the API key guard a request always has its account. */
function livemodeOf(request: FastifyRequest): boolean {
  return !isTestAccount(request.auth!.accountId);
}
