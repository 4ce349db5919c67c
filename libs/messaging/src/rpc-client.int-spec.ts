import { once } from 'node:events';
import { createServer, connect as tcpConnect, type AddressInfo, type Server, type Socket } from 'node:net';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { healthRpc } from '@switchboard/contracts';
import { testMessagingConfig, testNatsOptions } from '@switchboard/testing';
import { rpcSubject } from './messaging.config';
import { RpcClient } from './rpc-client';

/**
 * A TCP relay between one client and the tests' nats-server that counts the protocol operations the client sends:
 * what the server (and, in a cluster, every route to the other nodes) has to process for it.
 */
async function countingRelay(natsUrl: string): Promise<{ url: string; sent: Map<string, number>; server: Server }> {
  const target = new URL(natsUrl);
  const sent = new Map<string, number>();
  const sockets: Socket[] = [];
  const server = createServer((client) => {
    const upstream = tcpConnect(Number(target.port), target.hostname);
    sockets.push(client, upstream);
    let partial = '';
    client.on('data', (chunk: Buffer) => {
      // Protocol lines only: payloads follow a PUB/HPUB line and never start with an upper-case operation and a space.
      partial += chunk.toString('latin1');
      const lines = partial.split('\r\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const operation = /^(SUB|UNSUB|PUB|HPUB) /.exec(line)?.[1];
        if (operation) sent.set(operation, (sent.get(operation) ?? 0) + 1);
      }
    });
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  server.on('close', () => sockets.forEach((socket) => socket.destroy()));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `nats://127.0.0.1:${(server.address() as AddressInfo).port}`, sent, server };
}

describe("RpcClient's replies", () => {
  const config = testMessagingConfig('gateway', { requestTimeoutMs: 2000 });
  const rpc = healthRpc('numbers-billing');
  const connections: NatsConnection[] = [];
  afterAll(() => Promise.all(connections.map((nc) => nc.close())));

  it('come on one subscription per connection: 50 requests send 50 PUBs, one SUB and no UNSUB', async () => {
    const options = testNatsOptions();
    const responder = await connect(options);
    connections.push(responder);
    responder.subscribe(rpcSubject(config, rpc.subject), {
      callback: (_error, msg) => void msg.respond(JSON.stringify({ response: { status: 'ok' }, isDisposed: true })),
    });
    await responder.flush();

    const relay = await countingRelay(options.servers);
    try {
      const caller = await connect({ ...options, servers: relay.url });
      connections.push(caller);
      const client = new RpcClient(caller, config);
      for (let i = 0; i < 50; i++) await expect(client.request(rpc, {})).resolves.toEqual({ status: 'ok' });
      await caller.flush();
      expect(Object.fromEntries(relay.sent)).toEqual({ HPUB: 50, SUB: 1 });
    } finally {
      relay.server.close();
    }
  });
});
