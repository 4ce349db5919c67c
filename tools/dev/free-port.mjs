import { createServer } from 'node:net';

/** A TCP port on 127.0.0.1 nothing listens on now, for a server `npm start` runs itself (NATS, PostgreSQL). */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}
