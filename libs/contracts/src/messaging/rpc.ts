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
 * What crosses the wire as the reply: a result or an error body, never a thrown stack. `retry_after_seconds`
 * travels when the service knows when a retry may succeed (the gateway answers it as `Retry-After`).
 */
export type RpcReply<T> =
  { ok: true; data: T } | { ok: false; error: { code: string; message: string }; retry_after_seconds?: number };
