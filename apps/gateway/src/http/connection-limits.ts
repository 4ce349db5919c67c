import { STATUS_CODES, type ServerOptions } from 'node:http';
import type { Server, Socket } from 'node:net';
import { errorEnvelope } from '@switchboard/contracts';
import ipaddr from 'ipaddr.js';
import type { HttpLimits } from '../config/gateway.config';

/**
 * Node's server options for these limits. Node checks the two request time-outs every
 * `connectionsCheckingInterval` (30 s by default, so a 10 s time-out could take 40 s): here a quarter of the
 * headers time-out, at most one second. `requireHostHeader` is off so that a request without Host reaches the
 * gateway's own check, which answers in the error envelope (Node's answer has no body).
 */
export function nodeServerOptions(limits: HttpLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
    requireHostHeader: false,
  };
}

/**
 * Caps the connections one client address may hold open (and all clients together, through Node's
 * `maxConnections`), so that one client's idle or half-sent connections cannot use up the process's file
 * descriptors and starve everyone else. A connection over the per-client cap is answered `429 rate_limited` in the
 * error envelope and closed (over TLS it is closed without an answer: nothing can be written before the
 * handshake). Addresses of trusted proxies are not capped per client: every client behind them shares them.
 */
export function limitConnections(
  server: Server,
  limits: HttpLimits,
  options: { tls: boolean; isTrustedProxy(address: string): boolean },
): void {
  server.maxConnections = limits.maxConnections;
  const openByClient = new Map<string, number>();
  // The server's own listeners (Node's HTTP parser, or the TLS handshake) run only for admitted connections: a
  // refused one is never parsed, so no request on it can reach a route.
  const admit = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const client = clientAddress(socket.remoteAddress);
    if (client !== undefined && !options.isTrustedProxy(client)) {
      const open = (openByClient.get(client) ?? 0) + 1;
      if (open > limits.maxConnectionsPerClient) {
        refuse(socket, limits.maxConnectionsPerClient, options.tls);
        return;
      }
      openByClient.set(client, open);
      socket.once('close', () => {
        const left = (openByClient.get(client) ?? 1) - 1;
        if (left > 0) openByClient.set(client, left);
        else openByClient.delete(client);
      });
    }
    for (const listener of admit) listener.call(server, socket);
  });
}

/** One key per client: `::ffff:203.0.113.7` and `203.0.113.7` are the same client. */
function clientAddress(remote: string | undefined): string | undefined {
  if (!remote || !ipaddr.isValid(remote)) return remote;
  const parsed = ipaddr.parse(remote);
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
    ? (parsed as ipaddr.IPv6).toIPv4Address().toString()
    : parsed.toString();
}

/** How long a refused connection may take to read its answer before it is closed anyway. */
const REFUSAL_LINGER_MS = 1000;

function refuse(socket: Socket, cap: number, tls: boolean): void {
  if (tls) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(
    errorEnvelope(
      'rate_limited',
      `Too many open connections from your address (at most ${cap}); reuse connections and close idle ones.`,
    ),
  );
  const head = [
    `HTTP/1.1 429 ${STATUS_CODES[429]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'Connection: close',
  ];
  // Whatever the client sends is read and dropped (closing with unread data would reset the connection before
  // the client read its answer); the connection is closed when the client closes it or after a second.
  socket.on('error', () => undefined);
  socket.resume();
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  const linger = setTimeout(() => socket.destroy(), REFUSAL_LINGER_MS);
  linger.unref();
  socket.once('close', () => clearTimeout(linger));
}
