import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { COMPOSE_FILE, HOST_PORTS, portsTaken } from './cluster.mjs';

describe("the cluster's host ports", () => {
  it('are every 127.0.0.1 port compose.cluster.yaml listens on or names', () => {
    const compose = readFileSync(COMPOSE_FILE, 'utf8');
    const named = new Set(
      [
        ...compose.matchAll(/127\.0\.0\.1:(\d{4,5})\b/g),
        ...compose.matchAll(/(?:PORT|PGPORT|port|http_port)["']?[:,]\s*["']?(\d{4,5})\b/g),
      ].map(([, port]) => Number(port)),
    );
    expect([...named].filter((port) => !HOST_PORTS.includes(port)).sort()).toEqual([]);
    expect(new Set(HOST_PORTS).size).toBe(HOST_PORTS.length);
  });

  it('names a taken port with what holds it, and passes free ones', async () => {
    const holder: Server = createServer();
    await new Promise<void>((listening) => holder.listen(0, '127.0.0.1', listening));
    const port = (holder.address() as { port: number }).port;
    try {
      const free = createServer();
      await new Promise<void>((listening) => free.listen(0, '127.0.0.1', listening));
      const freePort = (free.address() as { port: number }).port;
      await new Promise((closed) => free.close(closed));

      const taken = await portsTaken([port, freePort]);
      expect(taken).toHaveLength(1);
      expect(taken[0]).toMatch(new RegExp(`^${port} \\(`));
    } finally {
      await new Promise((closed) => holder.close(closed));
    }
  });
});
