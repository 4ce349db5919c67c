import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** How many ports below the machine's ephemeral range `freePort` picks from. */
const SPAN = 10_000;

/**
 * A TCP port on 127.0.0.1 nothing listens on now, for a server `npm start`, the benchmarks or a test then runs itself
 * (NATS, PostgreSQL, a service). Picked below the machine's ephemeral range: a port from inside it (as `listen(0)`
 * gives) may become the local port of any process's outgoing connection before the server binds it, and the server
 * then fails with EADDRINUSE (a test of the service bundles did, once, on a busy CI run). Falls back to `listen(0)`
 * when the range leaves no room below it.
 */
export async function freePort() {
  const [low] = ephemeralRange();
  const from = Math.max(1024, low - SPAN);
  for (let tries = 0; low - from >= 100 && tries < 20; tries += 1) {
    const port = from + Math.floor(Math.random() * (low - from));
    if (await listensOn(port)) return port;
  }
  return listensOn(0);
}

/** The machine's ephemeral port range, `[low, high]` (Linux's default when it cannot be read). */
export function ephemeralRange(path = '/proc/sys/net/ipv4/ip_local_port_range') {
  try {
    const [low, high] = readFileSync(path, 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high) && low <= high) return [low, high];
  } catch {
    // Not Linux: its default below.
  }
  return [32768, 60999];
}

/** Listens on `port` (0: any) and closes again: the port it got, or 0 when that port is taken. */
function listensOn(port) {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', (error) => (error.code === 'EADDRINUSE' && port !== 0 ? resolvePort(0) : reject(error)));
    server.listen(port, '127.0.0.1', () => {
      const { port: got } = server.address();
      server.close(() => resolvePort(got));
    });
  });
}
