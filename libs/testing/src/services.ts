import * as net from 'node:net';
import { Client } from 'pg';

export const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

type Env = Readonly<Record<string, string | undefined>>;

/** The PostgreSQL server tests create their databases on (`TEST_DATABASE_URL`). */
export function testDatabaseServerUrl(env: Env = process.env): string {
  return env.TEST_DATABASE_URL?.trim() || DEFAULT_TEST_DATABASE_URL;
}

export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** Resolves when PostgreSQL at `url` answers `SELECT 1`; rejects with the driver's reason otherwise. */
export async function pingPostgres(url: string, timeoutMs = 3000): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Resolves when a NATS server at `url` greets a TCP connection with its `INFO` line. */
export function pingNats(url: string, timeoutMs = 3000): Promise<void> {
  const withScheme = /^[a-z]+:\/\//i.test(url) ? url : `nats://${url}`;
  const { hostname, port } = new URL(withScheme);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port) || 4222 });
    let received = '';
    const finish = (error?: Error) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(() => finish(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (received.startsWith('INFO ')) finish();
      else if (received.length >= 5)
        finish(new Error(`not a NATS server (it said ${JSON.stringify(received.slice(0, 40))})`));
    });
    socket.on('error', (error) => finish(error));
    socket.on('end', () => finish(new Error('connection closed before the NATS greeting')));
  });
}
