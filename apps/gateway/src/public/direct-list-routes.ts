import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ListCallsQuery, ListNumbersQuery } from '@switchboard/contracts';
import { RequestAuthenticator, authorizeApiKey, callerOf, type CallerOptions } from '../auth';
import type { DirectRoute } from '../http/direct-routes';
import { CallsHttpController } from './calls.http.controller';
import { markLivemode } from './livemode.interceptor';
import { NumbersHttpController } from './numbers.http.controller';

/** A list route's controller: its `list` answers the validated query for the caller. */
interface Lister {
  list(query: never, caller: CallerOptions): Promise<unknown>;
}

/**
 * The two most requested routes, `GET /v1/numbers` and `GET /v1/calls`, as `serveDirectly` answers them outside
 * Nest's per-request pipeline (docs/adr/0096): the API key guard's check, the query validated by its DTO, the
 * controller's `list`, and `livemode` on the answer, as the public API's interceptor adds it (set on the reply the
 * RPC parsed for this request rather than on copies).
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
    handle: (input, request) => controller.list(input as never, callerOf(request)),
    answer: (body, request) => markLivemode(body, request.auth?.accountId),
  });
  return [list('/v1/numbers', ListNumbersQuery, numbers), list('/v1/calls', ListCallsQuery, calls)];
}
