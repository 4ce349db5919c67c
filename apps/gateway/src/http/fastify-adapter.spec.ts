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
    }).getInstance<FastifyInstance>();
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

  it('closes within a second with a connection that sent no request and a kept-alive one between requests', async () => {
    const config = loadGatewayConfig({ ADMIN_TOKEN: 'a-long-enough-admin-token' });
    const fastify = createFastifyAdapter(config, pino({ level: 'silent' }), {
      server: 'public',
    }).getInstance<FastifyInstance>();
    fastify.get('/fast', async () => ({ ok: true }));
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    const { port } = fastify.server.address() as { port: number };

    // A spare connection that never sends a request (as HTTP clients and browsers open), and a kept-alive one that
    // got its answer; Node's own close waits on the first until the keep-alive time-out (72 s).
    const open = async () => {
      const socket = connect({ port, host: '127.0.0.1' });
      await new Promise((resolve) => socket.once('connect', resolve));
      const ended = new Promise((resolve) => socket.once('close', resolve));
      return { socket, ended };
    };
    const spare = await open();
    const kept = await open();
    let received = '';
    kept.socket.on('data', (chunk) => (received += chunk.toString()));
    kept.socket.write('GET /fast HTTP/1.1\r\nHost: x\r\n\r\n');
    await waitUntil(() => received.includes('{"ok":true}'));

    const started = Date.now();
    const closed = fastify.close().then(() => 'closed');
    const bound = new Promise((resolve) => setTimeout(resolve, 1000, 'still open after 1 s'));
    try {
      expect(await Promise.race([closed, bound])).toBe('closed');
      expect(Date.now() - started).toBeLessThan(1000);
      await Promise.all([spare.ended, kept.ended]);
    } finally {
      spare.socket.destroy();
      kept.socket.destroy();
      await closed;
    }
  });

  it('lets an answer in flight finish when closing, then closes its connection', async () => {
    const config = loadGatewayConfig({ ADMIN_TOKEN: 'a-long-enough-admin-token' });
    const fastify = createFastifyAdapter(config, pino({ level: 'silent' }), {
      server: 'public',
    }).getInstance<FastifyInstance>();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const slowArrived = new Promise<void>((resolve) => (arrived = resolve));
    fastify.get('/slow', async () => {
      arrived();
      await held;
      return { ok: true };
    });
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    const { port } = fastify.server.address() as { port: number };
    const socket = connect({ port, host: '127.0.0.1' });
    const ended = new Promise((resolve) => socket.once('close', resolve));
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await slowArrived;

    const closed = fastify.close();
    await new Promise((r) => setTimeout(r, 100));
    expect(socket.destroyed).toBe(false);
    release();
    await closed;
    await ended;
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    expect(received).toContain('{"ok":true}');
  });
});

async function waitUntil(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error('condition not met within 2 s');
}
