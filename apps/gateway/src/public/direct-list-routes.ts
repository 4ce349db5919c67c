import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  CallsRpc,
  isTestAccount,
  ListCallsQuery,
  ListNumbersQuery,
  NumbersRpc,
  type RpcDescriptor,
} from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import type { FastifyRequest } from 'fastify';
import { RequestAuthenticator, authorizeApiKey, callerOf } from '../auth';
import type { DirectRoute } from '../http/direct-routes';
import { CallsHttpController } from './calls.http.controller';
import { NumbersHttpController } from './numbers.http.controller';

/**
 * The two most requested routes, `GET /v1/numbers` and `GET /v1/calls`, as `serveDirectly` answers them outside
 * Nest's per-request pipeline (docs/adr/0096): the API key guard's check, the query validated by its DTO, and the
 * controller's RPC, whose reply is the answer's JSON as the service wrote it, `livemode` set by the service as the
 * public API's interceptor would set it (docs/adr/0115): neither parsed nor serialised again here.
 */
export function directListRoutes(app: NestFastifyApplication): DirectRoute[] {
  const rpc = app.get(RpcClient);
  const authenticator = app.get(RequestAuthenticator);
  const list = (
    url: string,
    query: new () => object,
    lister: RpcDescriptor<object, unknown>,
    handler: DirectRoute['handler'],
  ): DirectRoute => ({
    method: 'GET',
    url,
    authorize: (request, reply) => authorizeApiKey(authenticator, request, reply),
    input: { from: 'query', type: query },
    // The controller's method: its `@HttpCode` and OpenAPI description; its RPC is sent here.
    handler,
    handle: (input, request) => rpc.requestJson(lister, input, { ...callerOf(request), livemode: livemodeOf(request) }),
    answersJson: true,
  });
  return [
    list('/v1/numbers', ListNumbersQuery, NumbersRpc.list, app.get(NumbersHttpController).list),
    list('/v1/calls', ListCallsQuery, CallsRpc.list, app.get(CallsHttpController).list),
  ];
}

/** The key's mode: behind the API key guard a request always has its account. */
function livemodeOf(request: FastifyRequest): boolean {
  return !isTestAccount(request.auth!.accountId);
}
