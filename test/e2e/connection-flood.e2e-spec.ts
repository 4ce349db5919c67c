import { connect, type Socket } from 'node:net';
import { ApiSession, startSystem, type RunningSystem } from './support';
import { httpRequestText, rawRequest } from './support/raw-http';

jest.setTimeout(120_000);

// Long enough that the whole flood is open before the first admitted connection times out and frees its slot.
const HEADERS_TIMEOUT_MS = 3000;
const REQUEST_TIMEOUT_MS = 5000;
const PER_CLIENT = 40;
/** The flooding client's sockets (loopback only; all closed by the test). */
const FLOOD_SOCKETS = 600;
const FLOOD_SECONDS = 6;

/** One flooding connection: what it was sent, what came back, and when it was closed. */
interface FloodConnection {
  kind: 'silent' | 'half headers' | 'half body';
  openedAt: number;
  closedAt?: number;
  answer: string;
  socket: Socket;
}

const PARTIAL: Record<FloodConnection['kind'], string> = {
  silent: '',
  'half headers': 'GET /v1/numbers HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer sk_live_',
  'half body':
    'POST /v1/numbers HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"business_phone":',
};

/**
 * Issue 22: 20,000 idle half-sent requests from one client exhausted the gateway's file descriptors and took
 * /readyz down. With a per-client connection cap and request time-outs, one client holding hundreds of idle and
 * half-sent connections gets refusals and time-outs, and everyone else gets answers.
 */
describe('gateway edge: a connection flood from one client', () => {
  let system: RunningSystem;
  let session: ApiSession;

  beforeAll(async () => {
    system = await startSystem({
      env: {
        HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
        HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
        HTTP_MAX_CONNECTIONS_PER_CLIENT: String(PER_CLIENT),
        RATE_LIMIT_REQUESTS: '100000',
      },
    });
    session = await ApiSession.create(system);
  });
  afterAll(() => system?.stop());

  function open(kind: FloodConnection['kind']): Promise<FloodConnection> {
    const url = new URL(system.publicUrl);
    return new Promise((resolve) => {
      const socket = connect({ host: url.hostname, port: Number(url.port), localAddress: '127.0.0.1' });
      const connection: FloodConnection = { kind, openedAt: Date.now(), answer: '', socket };
      socket.on('data', (chunk) => (connection.answer += chunk.toString('utf8')));
      socket.on('error', () => undefined);
      socket.on('close', () => (connection.closedAt = Date.now()));
      socket.on('connect', () => {
        if (PARTIAL[kind]) socket.write(PARTIAL[kind]);
        resolve(connection);
      });
    });
  }

  /** Another client (source address 127.0.0.2): its answers while the flood is on. */
  async function otherClientAnswers(): Promise<number[]> {
    const local = { localAddress: '127.0.0.2', timeoutMs: 3000 };
    const ready = await rawRequest(system.publicUrl, httpRequestText('GET', '/readyz', {}), local);
    const list = await rawRequest(
      system.publicUrl,
      httpRequestText('GET', '/v1/numbers', { authorization: `Bearer ${session.key}` }),
      local,
    );
    return [ready.status, list.status];
  }

  it(`caps the flooding client at ${PER_CLIENT} connections, times its half-sent requests out, and keeps answering another client and /readyz`, async () => {
    const kinds: FloodConnection['kind'][] = ['silent', 'half headers', 'half body'];
    const flood: FloodConnection[] = [];
    // In batches, all within well under the headers time-out, so no admitted connection frees its slot meanwhile.
    const floodStart = Date.now();
    for (let i = 0; i < FLOOD_SOCKETS; i += 100) {
      flood.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(100, FLOOD_SOCKETS - i) }, (_, j) => open(kinds[(i + j) % kinds.length])),
        )),
      );
    }
    expect(Date.now() - floodStart).toBeLessThan(HEADERS_TIMEOUT_MS);

    // Keep the flood up (every connection the gateway closes is opened again) while the other client asks.
    const otherAnswers: number[] = [];
    const until = Date.now() + FLOOD_SECONDS * 1000;
    const reopened: FloodConnection[] = [];
    while (Date.now() < until) {
      otherAnswers.push(...(await otherClientAnswers()));
      for (const connection of [...flood, ...reopened].filter((c) => c.closedAt !== undefined && !c.socket.destroyed))
        connection.socket.destroy();
      const closed = [...flood, ...reopened].filter((c) => c.closedAt !== undefined).length;
      while (reopened.length < closed && reopened.length < FLOOD_SOCKETS) reopened.push(await open('half body'));
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const connection of [...flood, ...reopened]) connection.socket.destroy();

    expect(otherAnswers.length).toBeGreaterThanOrEqual(10);
    expect(otherAnswers.every((status) => status === 200)).toBe(true);

    // Over the cap: answered 429 rate_limited in the envelope at once and closed.
    const refused = flood.filter((c) => c.answer.startsWith('HTTP/1.1 429'));
    expect(refused.length).toBeGreaterThanOrEqual(FLOOD_SOCKETS - PER_CLIENT);
    expect(refused[0].answer).toContain('"code":"rate_limited"');
    expect(refused[0].answer).toContain(`at most ${PER_CLIENT}`);
    // Admitted: each idle or half-sent request answered 408 request_timeout and closed after its time-out.
    const admitted = flood.filter((c) => !c.answer.startsWith('HTTP/1.1 429'));
    expect(admitted.length).toBeGreaterThan(0);
    expect(admitted.length).toBeLessThanOrEqual(PER_CLIENT);
    for (const connection of admitted) {
      expect({
        kind: connection.kind,
        answer: connection.answer.split('\r\n')[0],
        body: connection.answer.includes('"code":"request_timeout"'),
      }).toEqual({
        kind: connection.kind,
        answer: 'HTTP/1.1 408 Request Timeout',
        body: true,
      });
      const limit = connection.kind === 'half body' ? REQUEST_TIMEOUT_MS : HEADERS_TIMEOUT_MS;
      expect(connection.closedAt! - connection.openedAt).toBeGreaterThanOrEqual(limit - 50);
      // Node checks time-outs every quarter of the headers time-out here (750 ms; 30 s by default, which this bound
      // rules out); the rest is both event loops' lag on a loaded machine (1.6 s seen on a two-core CI run).
      expect(connection.closedAt! - connection.openedAt).toBeLessThan(limit + 3000);
    }
  });

  it('counts a client again from zero once its connections are closed', async () => {
    const answer = await rawRequest(system.publicUrl, httpRequestText('GET', '/healthz', {}), {
      localAddress: '127.0.0.1',
    });
    expect(answer.status).toBe(200);
  });
});
