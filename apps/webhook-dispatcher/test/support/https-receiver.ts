import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  /** The TLS server name the client asked for (SNI); false when it sent none. */
  servername: string | false;
  /** Which TLS connection it came on: 1 for the receiver's first, and so on. */
  connection: number;
  /** Whether that connection resumed an earlier TLS session (no full handshake). */
  resumed: boolean;
}

/** How the receiver answers one request: a status (and headers), or never (the request is held open). */
export type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

export type Behaviour =
  /** Scripted: the answer to request `n` (from 1). */
  | { answer: (request: ReceivedRequest, n: number) => Answer }
  /** Any request handler (e.g. the documented example receiver); requests are still recorded. */
  | { handler: (req: IncomingMessage, res: ServerResponse) => void };

export interface TestReceiver {
  port: number;
  /** `https://<host>:<port><path>`; host defaults to 127.0.0.1. */
  url(path?: string, host?: string): string;
  requests: ReceivedRequest[];
  /** Resolves when `count` requests have arrived (rejects after `timeoutMs`). */
  received(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  /** Answers every held request with `status`. */
  release(status?: number): void;
  close(): Promise<void>;
}

/** Scripted answers in order; the last one repeats. */
export function answers(...list: Answer[]): Behaviour {
  return { answer: (_, n) => list[Math.min(n, list.length) - 1] };
}

/** A real HTTPS receiver on 127.0.0.1 that records every request it gets. */
export async function startHttpsReceiver(
  tls: { key: string; cert: string },
  behaviour: Behaviour,
): Promise<TestReceiver> {
  const requests: ReceivedRequest[] = [];
  const held: ServerResponse[] = [];
  const waiters: (() => void)[] = [];
  const record = (request: ReceivedRequest): void => {
    requests.push(request);
    for (const wake of waiters.splice(0)) wake();
  };
  const connections = new WeakMap<object, number>();
  let connectionCount = 0;
  const server: Server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    const servername = (req.socket as { servername?: string | false }).servername ?? false;
    if (!connections.has(req.socket)) connections.set(req.socket, ++connectionCount);
    const connection = connections.get(req.socket)!;
    const resumed = (req.socket as TLSSocket).isSessionReused();
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    const request = (): ReceivedRequest => ({
      method: req.method!,
      path: req.url!,
      headers: req.headers,
      rawBody: Buffer.concat(chunks),
      servername,
      connection,
      resumed,
    });
    if ('handler' in behaviour) {
      req.on('end', () => record(request()));
      behaviour.handler(req, res);
      return;
    }
    req.on('end', () => {
      const received = request();
      const answer = behaviour.answer(received, requests.length + 1);
      record(received);
      if (answer === 'hang') held.push(res);
      else res.writeHead(answer.status, answer.headers).end(answer.body);
    });
  });
  const port = await listenLocally(server);
  return {
    port,
    requests,
    url: (path = '/hook', host = '127.0.0.1') => `https://${host}:${port}${path}`,
    async received(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`the receiver got ${requests.length} request(s), expected ${count}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return requests.slice(0, count);
    },
    release(status = 200) {
      for (const res of held.splice(0)) if (!res.writableEnded && !res.destroyed) res.writeHead(status).end();
    },
    async close() {
      for (const res of held.splice(0)) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Listens on a free port for both 127.0.0.1 and ::1 when the machine has IPv6 (so `localhost` works whichever
 * address the resolver gives first), else on 127.0.0.1. Returns the port.
 */
export async function listenLocally(server: Server): Promise<number> {
  const listen = (host: string) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port: 0, host, ipv6Only: false }, () => {
        server.off('error', reject);
        resolve();
      });
    });
  try {
    await listen('::');
  } catch {
    await listen('127.0.0.1');
  }
  return (server.address() as AddressInfo).port;
}
