import { UseFilters, UsePipes, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { MessagePattern, Transport, type NatsContext } from '@nestjs/microservices';
import { HEADERS, ServiceError, type RpcDescriptor } from '@switchboard/contracts';
import { RpcErrorFilter } from './rpc-error.filter';
import { MessageValidationPipe } from './validation';

/** Who is asking: set by the gateway in message headers, never taken from the body. */
export interface RpcContext {
  /** The authenticated account, for account-scoped requests. */
  accountId: string | undefined;
  requestId: string | undefined;
}

/**
 * The account an account-scoped request acts for: set by the gateway after it authenticated the key, never taken
 * from a body. A request without one is refused as `unauthorized`.
 */
export function requireAccount(ctx: RpcContext): string {
  if (!ctx.accountId) throw new ServiceError('unauthorized', 'This request needs an authenticated account.');
  return ctx.accountId;
}

/** The caller a request's NATS headers name (`HEADERS.accountId`, `HEADERS.requestId`). */
export function callerOf(ctx: NatsContext): RpcContext {
  const headers = ctx.getHeaders() as { get(key: string): string } | undefined;
  return {
    accountId: headers?.get(HEADERS.accountId) || undefined,
    requestId: headers?.get(HEADERS.requestId) || undefined,
  };
}

/** `@Caller() ctx: RpcContext`: the account and request id from the message's headers. */
export const Caller = createParamDecorator((_data: unknown, ctx: ExecutionContext): RpcContext =>
  callerOf(ctx.switchToRpc().getContext<NatsContext>()),
);

/** Where Nest keeps a handler's parameter decorators (`ROUTE_ARGS_METADATA`); each key ends in `:<index>`. */
const ROUTE_ARGS_METADATA = '__routeArguments__';

/**
 * Nest's `@MessagePattern` for one request/reply subject, typed by its descriptor: a handler that takes or answers
 * another shape than the descriptor's fails to compile. It also binds what every request gets: the payload
 * validated against the descriptor's class (`MessageValidationPipe`) and refusals put on the wire as the gateway
 * reads them (`RpcErrorFilter`). The handler takes `@Payload()` and, when it needs the caller, `@Caller()`:
 *
 *     @RpcPattern(NumbersRpc.list)
 *     list(@Payload() request: ListNumbersQuery, @Caller() ctx: RpcContext): Promise<NumberList> { ... }
 *
 * The subject is served below the deployment prefix (`NatsRpcServer`), in the service's queue group.
 */
export function RpcPattern<Req extends object, Res>(rpc: RpcDescriptor<Req, Res>) {
  return <M extends (request: Req, ctx: RpcContext) => Promise<Res>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<M>,
  ): void => {
    requireDecoratedParameters(target, key, descriptor.value);
    MessagePattern(rpc.subject, Transport.NATS)(target, key, descriptor);
    UsePipes(new MessageValidationPipe(rpc.request))(target, key, descriptor);
    UseFilters(RpcErrorFilter)(target, key, descriptor);
  };
}

/**
 * A parameter without a decorator would be filled by Nest's default (the payload first, then the NATS context),
 * so a handler that forgot `@Caller()` would silently see no account. Parameter decorators run before method
 * decorators, so this is checked when the class is defined.
 */
function requireDecoratedParameters(target: object, key: string | symbol, method: unknown): void {
  const length = typeof method === 'function' ? method.length : 0;
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, target.constructor, key) ?? {}) as Record<string, unknown>;
  const decorated = new Set(Object.keys(args).map((argKey) => Number(argKey.split(':').pop())));
  for (let index = 0; index < length; index += 1) {
    if (!decorated.has(index)) {
      throw new Error(
        `${target.constructor.name}.${String(key)}: parameter ${index} needs @Payload() or @Caller() (Nest would fill it by position)`,
      );
    }
  }
}
