import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { HttpLimits } from '../config/gateway.config';
import { limitConnections, nodeServerOptions } from './connection-limits';

const limits: HttpLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 72_000,
  maxConnections: 1000,
  maxConnectionsPerClient: 3,
};

/** Connections held open on a loopback server, each with what it received. */
async function openMany(port: number, count: number): Promise<{ socket: Socket; received: () => string }[]> {
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<{ socket: Socket; received: () => string }>((resolve) => {
          let received = '';
          const socket = connect({ port, host: '127.0.0.1' });
          socket.on('data', (chunk) => (received += chunk.toString()));
          socket.on('error', () => undefined);
          socket.on('connect', () => resolve({ socket, received: () => received }));
        }),
    ),
  );
}

describe('connection limits', () => {
  let server: Server;
  let port: number;
  const start = async (trusted: boolean) => {
    server = createServer((_, res) => res.end('ok'));
    limitConnections(server, limits, { tls: false, isTrustedProxy: () => trusted });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  };
  afterEach(() => new Promise((resolve) => server.close(resolve)));

  it('answers connections over the per-client cap with 429 rate_limited in the envelope, and frees a slot on close', async () => {
    await start(false);
    const held = await openMany(port, 5);
    await new Promise((r) => setTimeout(r, 100));
    const refused = held.filter((c) => c.received().startsWith('HTTP/1.1 429'));
    expect(refused).toHaveLength(2);
    expect(refused[0].received()).toContain(
      '{"error":{"code":"rate_limited","message":"Too many open connections from your address (at most 3)',
    );
    held.forEach((c) => c.socket.destroy());
    await new Promise((r) => setTimeout(r, 100));
    const again = await openMany(port, 3);
    await new Promise((r) => setTimeout(r, 100));
    expect(again.filter((c) => c.received() !== '')).toHaveLength(0);
    again.forEach((c) => c.socket.destroy());
  });

  it('does not cap a trusted proxy, which carries many clients', async () => {
    await start(true);
    const held = await openMany(port, 6);
    await new Promise((r) => setTimeout(r, 100));
    expect(held.filter((c) => c.received() !== '')).toHaveLength(0);
    held.forEach((c) => c.socket.destroy());
  });

  it('gives Node the time-outs, a check interval fit for them, and no bare 400 for a missing Host', () => {
    expect(nodeServerOptions(limits)).toEqual({
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      keepAliveTimeout: 72_000,
      connectionsCheckingInterval: 1000,
      requireHostHeader: false,
    });
    expect(nodeServerOptions({ ...limits, headersTimeoutMs: 1000 }).connectionsCheckingInterval).toBe(250);
  });
});
