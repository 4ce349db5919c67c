import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * How long a closing server lets the answers in flight finish before it closes their connections anyway: less than
 * the 15 s a stopping process has in all (SHUTDOWN_TIMEOUT_MS), so NATS and the database still close cleanly.
 */
export const CLOSE_GRACE_MS = 10_000;

/**
 * Makes closing the server end every connection promptly. Node's `server.close()` closes only the kept-alive
 * connections between two requests, and stops checking the request time-outs: a connection that is open but has not
 * sent (all of) a request yet (a browser's or an HTTP client's spare connection, a client that went quiet) then kept
 * the close waiting until the keep-alive time-out, 72 s, much longer than a rolling upgrade waits. Here, once the
 * server starts closing, a connection with no answer in flight is closed at once, one with an answer in flight
 * (a webhook listener's stream included: WebhookListeners ends those first) as soon as its last answer is sent, and
 * whatever is left after `graceMs`.
 */
export function closeConnectionsOnClose(fastify: FastifyInstance, options: { tls: boolean; graceMs?: number }): void {
  const server = fastify.server;
  /** Each open connection and how many of its requests are not answered yet. */
  const inFlight = new Map<Socket, number>();
  let closing = false;
  const track = (socket: Socket): void => {
    if (closing) {
      // Accepted as the server closed: it may send its request (answered 503), but not keep the close waiting.
      const late = setTimeout(() => {
        if (!inFlight.get(socket)) socket.destroy();
      }, 1000);
      late.unref();
      socket.once('close', () => clearTimeout(late));
    }
    inFlight.set(socket, inFlight.get(socket) ?? 0);
    socket.once('close', () => inFlight.delete(socket));
  };
  // Over TLS, requests arrive on the TLS socket, not on the TCP one under it.
  server.on(options.tls ? 'secureConnection' : 'connection', track);
  server.on('request', (request, response) => {
    const socket = request.socket;
    if (!inFlight.has(socket)) track(socket);
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    response.once('close', () => {
      if (!inFlight.has(socket)) return;
      const left = Math.max(0, (inFlight.get(socket) ?? 1) - 1);
      inFlight.set(socket, left);
      if (closing && left === 0) socket.destroy();
    });
  });
  fastify.addHook('preClose', (done) => {
    closing = true;
    for (const [socket, pending] of inFlight) if (pending === 0) socket.destroy();
    const deadline = setTimeout(() => {
      for (const socket of inFlight.keys()) socket.destroy();
    }, options.graceMs ?? CLOSE_GRACE_MS);
    deadline.unref();
    server.once('close', () => clearTimeout(deadline));
    done();
  });
}
