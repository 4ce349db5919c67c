import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { loadGatewayConfig } from '../config/gateway.config';
import { createFastifyAdapter } from './fastify-adapter';

describe('the gateway Fastify adapter', () => {
  it('answers a request that arrives while the server closes with 503 service_unavailable in the envelope', async () => {
    const config = loadGatewayConfig({ ADMIN_TOKEN: 'a-long-enough-admin-token' });
    const fastify = createFastifyAdapter(config, pino({ level: 'silent' }), {
      server: 'public',
    }).getInstance() as unknown as FastifyInstance;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const slowArrived = new Promise<void>((resolve) => (arrived = resolve));
    fastify.get('/slow', async () => {
      arrived();
      await held;
      return { ok: true };
    });
    fastify.get('/fast', async () => ({ ok: true }));
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    const { port } = fastify.server.address() as { port: number };

    // One keep-alive connection: a slow request in flight, then a second one sent once the server is closing.
    const socket = connect({ port, host: '127.0.0.1' });
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await slowArrived;
    const closed = fastify.close();
    await new Promise((r) => setTimeout(r, 50));
    socket.write('GET /fast HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((r) => setTimeout(r, 100));
    release();
    await closed;
    await new Promise((r) => setTimeout(r, 50));
    socket.destroy();

    const answers = received.split(/(?=HTTP\/1\.1 )/);
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200/);
    expect(answers[1]).toMatch(/^HTTP\/1\.1 503/);
    expect(answers[1]).toMatch(/\r\nretry-after: 5\r\n/i);
    expect(answers[1]).toContain(
      '{"error":{"code":"service_unavailable","message":"The gateway is shutting down; send the request again."}}',
    );
  });
});
