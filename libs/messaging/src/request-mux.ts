import {
  createInbox,
  errors as natsErrors,
  type ConnectionOptions,
  type Msg,
  type MsgHdrs,
  type NatsConnection,
} from '@nats-io/transport-node';

interface PendingRequest {
  subject: string;
  resolve: (msg: Msg) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export interface MuxRequestOptions {
  timeoutMs: number;
  headers?: MsgHdrs;
}

/** One mux per connection: a connection reconnects by itself and keeps its subscriptions. */
const muxes = new WeakMap<NatsConnection, RequestMux>();

/**
 * Requests and their replies over one inbox subscription per connection (`<inbox prefix>.<id>.*`, one token per
 * request), as nats.js's own `request` does, doing less for each: nats-core 3.4 settles every answered request twice
 * (it resolves it, then rejects the settled promise with a new `RequestError`, whose stack is captured for nothing:
 * 2.5% of the gateway's CPU under `GET /v1/numbers`) and races two promises per request. Errors are nats.js's own
 * classes, as `nc.request` gives them: `NoRespondersError` when the server says no one listens, `TimeoutError`,
 * `RequestError` when the connection closes, and the server's `PermissionViolationError` for a publish or an inbox
 * subscription it refused.
 */
export class RequestMux {
  private readonly inbox: string;
  private readonly pending = new Map<string, PendingRequest>();
  private next = 0;
  private closed = false;

  private constructor(private readonly nc: NatsConnection) {
    // The connection's own inbox prefix: a service's NATS user may read replies only below it (bus-permissions.ts).
    const prefix = (nc as NatsConnection & { options?: ConnectionOptions }).options?.inboxPrefix;
    this.inbox = `${createInbox(prefix)}.`;
    nc.subscribe(`${this.inbox}*`, {
      callback: (error, msg) => (error ? this.fail(error) : this.answer(msg)),
    });
    void nc.closed().then(() => this.fail(new natsErrors.RequestError('connection closed')));
    void this.watchRefusedPublishes();
  }

  /** The connection's mux, made on its first request. */
  static of(nc: NatsConnection): RequestMux {
    let mux = muxes.get(nc);
    if (!mux || mux.closed) {
      mux = new RequestMux(nc);
      muxes.set(nc, mux);
    }
    return mux;
  }

  /** Requests currently waiting for their reply. */
  get waiting(): number {
    return this.pending.size;
  }

  request(subject: string, data: Uint8Array, { timeoutMs, headers }: MuxRequestOptions): Promise<Msg> {
    const token = (this.next++).toString(36);
    return new Promise<Msg>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(token);
        reject(new natsErrors.TimeoutError());
      }, timeoutMs);
      this.pending.set(token, { subject, resolve, reject, timer });
      try {
        this.nc.publish(subject, data, { reply: `${this.inbox}${token}`, headers });
      } catch (error) {
        this.settle(token)?.reject(error as Error);
      }
    });
  }

  private answer(msg: Msg): void {
    const request = this.settle(msg.subject.slice(this.inbox.length));
    if (!request) return; // answered after its time-out, or a second reply
    // The server's answer when nothing is subscribed to the subject: an empty message with status 503.
    if (msg.data.length === 0 && msg.headers?.code === 503)
      request.reject(new natsErrors.NoRespondersError(request.subject));
    else request.resolve(msg);
  }

  /** Takes a request out of the waiting ones, its timer stopped. */
  private settle(token: string): PendingRequest | undefined {
    const request = this.pending.get(token);
    if (!request) return undefined;
    this.pending.delete(token);
    clearTimeout(request.timer);
    return request;
  }

  /** The inbox cannot be read (the connection closed, or the server refused the subscription): every wait ends. */
  private fail(error: Error): void {
    this.closed = true;
    if (muxes.get(this.nc) === this) muxes.delete(this.nc);
    for (const token of [...this.pending.keys()]) this.settle(token)?.reject(error);
  }

  /** A publish the server refused is said on the connection's status: its requests fail at once, not at time-out. */
  private async watchRefusedPublishes(): Promise<void> {
    try {
      for await (const status of this.nc.status()) {
        if (this.closed) return;
        const error = status.type === 'error' ? status.error : undefined;
        if (!(error instanceof natsErrors.PermissionViolationError) || error.operation !== 'publish') continue;
        for (const [token, request] of this.pending)
          if (request.subject === error.subject) this.settle(token)?.reject(error);
      }
    } catch {
      // The status ends with the connection's own error when it closes on one; `closed()` ends the waiting requests.
    }
  }
}
