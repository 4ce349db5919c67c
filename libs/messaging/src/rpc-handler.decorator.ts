import { SetMetadata } from '@nestjs/common';
import { ServiceError, type RpcDescriptor } from '@switchboard/contracts';

export const RPC_HANDLER = Symbol('RPC_HANDLER');

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

/**
 * Marks a provider method as the handler of one request/reply subject. The method's signature is checked
 * against the descriptor, so a handler cannot take or answer the wrong shape.
 */
export function RpcHandler<Req extends object, Res>(rpc: RpcDescriptor<Req, Res>) {
  return <M extends (request: Req, ctx: RpcContext) => Promise<Res>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<M>,
  ): void => {
    SetMetadata(RPC_HANDLER, rpc)(target, key, descriptor);
  };
}
