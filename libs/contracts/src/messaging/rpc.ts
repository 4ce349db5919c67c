/**
 * A request/reply message between the gateway and a service: its NATS subject (versioned, without the
 * deployment prefix), the class that validates its request on receipt, and (as a type only) its reply.
 * Clients and handlers are typed by the descriptor, so sending or answering the wrong shape fails to compile.
 */
export type ClassOf<T> = new (...args: never[]) => T;

export interface RpcDescriptor<Req extends object, Res> {
  readonly subject: string;
  readonly request: ClassOf<Req>;
  /** Phantom: carries the reply type; never set. */
  readonly reply?: Res;
}

export type RpcRequestOf<D> = D extends RpcDescriptor<infer Req, unknown> ? Req : never;
export type RpcReplyOf<D> = D extends RpcDescriptor<object, infer Res> ? Res : never;

export function defineRpc<Req extends object, Res>(subject: string, request: ClassOf<Req>): RpcDescriptor<Req, Res> {
  return { subject, request };
}

/**
 * A refusal as it crosses the wire (the `err` of Nest's NATS reply): a code and a message, never a stack.
 * `retry_after_seconds` travels when the service knows when a retry may succeed (the gateway answers it as
 * `Retry-After`).
 */
export interface RpcErrorBody {
  code: string;
  message: string;
  retry_after_seconds?: number;
}
