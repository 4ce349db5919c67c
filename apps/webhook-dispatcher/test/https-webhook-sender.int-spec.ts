import type { TLSSocket } from 'node:tls';
import type { ResolvedTarget } from '@switchboard/egress';
import { HttpsWebhookSender } from '../src/webhook-sender/https-webhook-sender.adapter';
import { answers, startHttpsReceiver, type TestReceiver } from './support/https-receiver';
import { selfSignedCertificate, type TestCertificate } from './support/tls';

jest.setTimeout(30_000);

let certificate: TestCertificate;
let sender: HttpsWebhookSender;
let receiver: TestReceiver | undefined;

beforeAll(() => {
  certificate = selfSignedCertificate(['hooks-a.test', 'hooks-b.test']);
});

beforeEach(() => {
  sender = new HttpsWebhookSender({ extraCa: certificate.cert });
});

afterEach(async () => {
  sender.onApplicationShutdown();
  await receiver?.close();
  receiver = undefined;
});

afterAll(() => certificate.remove());

/** The target the egress check would hand over for `host` (a name only the test knows) on 127.0.0.1. */
function target(host: string, port: number): ResolvedTarget {
  return { url: new URL(`https://${host}:${port}/hook`), host, port, address: '127.0.0.1', family: 4 };
}

const post = (to: ResolvedTarget) =>
  sender.send({
    target: to,
    body: Buffer.from('{}'),
    headers: { 'Content-Type': 'application/json' },
    timeoutMs: 5_000,
  });

/** The server name of each TLS connection the receiver accepted, in order. */
function connectionsOf(server: TestReceiver): (string | false)[] {
  const names = new Map<number, string | false>();
  for (const request of server.requests)
    if (!names.has(request.connection)) names.set(request.connection, request.servername);
  return [...names.values()];
}

describe('HttpsWebhookSender connections (ADR 0075)', () => {
  it('sends the next attempt to the same checked address and name on the connection it kept', async () => {
    receiver = await startHttpsReceiver(certificate, { answer: () => ({ status: 204 }) });
    const to = target('hooks-a.test', receiver.port);
    expect(await post(to)).toEqual({ statusCode: 204 });
    expect(await post(to)).toEqual({ statusCode: 204 });
    expect(await post(to)).toEqual({ statusCode: 204 });
    expect(receiver.requests).toHaveLength(3);
    expect(connectionsOf(receiver)).toEqual(['hooks-a.test']);
  });

  it('never lets one name use a connection made for another, even on the same address', async () => {
    receiver = await startHttpsReceiver(certificate, { answer: () => ({ status: 204 }) });
    await post(target('hooks-a.test', receiver.port));
    await post(target('hooks-b.test', receiver.port));
    await post(target('hooks-a.test', receiver.port));
    expect(receiver.requests.map((r) => [r.headers.host, r.servername])).toEqual([
      [`hooks-a.test:${receiver.port}`, 'hooks-a.test'],
      [`hooks-b.test:${receiver.port}`, 'hooks-b.test'],
      [`hooks-a.test:${receiver.port}`, 'hooks-a.test'],
    ]);
    expect(connectionsOf(receiver)).toEqual(['hooks-a.test', 'hooks-b.test']);
  });

  it("resumes a receiver's TLS session on its next connection, and only for the name it was made for", async () => {
    // The first answer closes its connection, so the next attempt connects anew.
    receiver = await startHttpsReceiver(
      certificate,
      answers({ status: 204, headers: { Connection: 'close' } }, { status: 204 }),
    );
    const a = target('hooks-a.test', receiver.port);
    await post(a);
    await post(a);
    await post(target('hooks-b.test', receiver.port));
    expect(receiver.requests.map((r) => [r.servername, r.connection, r.resumed])).toEqual([
      ['hooks-a.test', 1, false],
      ['hooks-a.test', 2, true],
      ['hooks-b.test', 3, false],
    ]);
  });

  it('sends once more on a fresh connection when the kept one was closed under it, and only once', async () => {
    // The receiver drops the connection of every request that comes on a reused one, as a server does that closed
    // an idle connection just as the attempt was written to it.
    const reused = new WeakSet<TLSSocket>();
    receiver = await startHttpsReceiver(certificate, {
      handler: (req, res) => {
        const socket = req.socket as TLSSocket;
        if (reused.has(socket)) {
          socket.destroy();
          return;
        }
        reused.add(socket);
        req.resume();
        req.on('end', () => res.writeHead(204).end());
      },
    });
    const to = target('hooks-a.test', receiver.port);
    expect(await post(to)).toEqual({ statusCode: 204 });
    expect(await post(to)).toEqual({ statusCode: 204 });
    // First attempt; the second on the kept connection (dropped), then on a fresh one.
    expect(receiver.requests.map((r) => r.connection)).toEqual([1, 1, 2]);
  });

  it('keeps at most its bound of idle connections across receivers, closing the one idle longest', async () => {
    sender.onApplicationShutdown();
    sender = new HttpsWebhookSender({ extraCa: certificate.cert, maxIdleConnections: 2 });
    receiver = await startHttpsReceiver(certificate, { answer: () => ({ status: 204 }) });
    const port = receiver.port;
    const [a, b, c] = ['hooks-a.test', 'hooks-b.test', 'localhost'].map((name) => target(name, port));
    for (const to of [a, b, c, a, c, b, c]) expect(await post(to)).toEqual({ statusCode: 204 });
    // c's connection set aside closed a's (idle longest); a's new one closed b's; c's was kept and reused; b's new
    // one closed a's second, idle longer than c's, which was reused again.
    expect(receiver.requests.map((r) => [r.servername, r.connection])).toEqual([
      ['hooks-a.test', 1],
      ['hooks-b.test', 2],
      ['localhost', 3],
      ['hooks-a.test', 4],
      ['localhost', 3],
      ['hooks-b.test', 5],
      ['localhost', 3],
    ]);
  });

  it('reports a connection refused as an answer, without a retry', async () => {
    receiver = await startHttpsReceiver(certificate, { answer: () => ({ status: 204 }) });
    const port = receiver.port;
    await receiver.close();
    receiver = undefined;
    expect(await post(target('hooks-a.test', port))).toEqual({ error: 'connection refused' });
  });
});
