import { randomBytes } from 'node:crypto';
import { connect, errors, headers, type NatsConnection } from '@nats-io/transport-node';
import { testNatsOptions } from '@switchboard/testing';
import { inboxPrefix } from './bus-permissions';
import { rpcSubject } from './messaging.config';
import { RequestMux } from './request-mux';

// Against the tests' nats-server, locked as deployed: each connection reads replies only below its own inbox.
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const connections: NatsConnection[] = [];
const prefix = `mux${randomBytes(4).toString('hex')}`;

async function connectAs(service: 'gateway' | 'numbers-billing'): Promise<NatsConnection> {
  const nc = await connect({ ...testNatsOptions(service), inboxPrefix: inboxPrefix(service) });
  connections.push(nc);
  return nc;
}

/** A subject the gateway may ask and numbers-billing may serve (bus-permissions.ts). */
const subject = (name: string) => rpcSubject({ prefix }, `numbers.v1.${name}`);

let gateway: NatsConnection;
let service: NatsConnection;
beforeAll(async () => {
  [gateway, service] = await Promise.all([connectAs('gateway'), connectAs('numbers-billing')]);
});
afterAll(() => Promise.all(connections.map((nc) => nc.close())));

async function errorOf(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (error: Error) => error,
  );
}

describe('RequestMux', () => {
  it('answers each of many concurrent requests with its own reply, headers included, on one subscription', async () => {
    service.subscribe(subject('echo'), {
      callback: (_, msg) => {
        // Out of order, so a reply must find its request by its token, not by arrival.
        setTimeout(
          () => msg.respond(encoder.encode(`${msg.headers?.get('x-n')}:${decoder.decode(msg.data)}`)),
          Math.random() * 20,
        );
      },
    });
    await service.flush();
    const mux = RequestMux.of(gateway);
    expect(RequestMux.of(gateway)).toBe(mux);
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, n) => {
        const h = headers();
        h.set('x-n', String(n));
        return mux.request(subject('echo'), encoder.encode(`body ${n}`), { timeoutMs: 5000, headers: h });
      }),
    );
    expect(answers.map((msg) => decoder.decode(msg.data))).toEqual(
      Array.from({ length: 200 }, (_, n) => `${n}:body ${n}`),
    );
    expect(mux.waiting).toBe(0);
  });

  it('fails at once with NoRespondersError when no one serves the subject', async () => {
    const started = Date.now();
    const error = await errorOf(
      RequestMux.of(gateway).request(subject('nobody'), encoder.encode('{}'), { timeoutMs: 5000 }),
    );
    expect(error).toBeInstanceOf(errors.NoRespondersError);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(RequestMux.of(gateway).waiting).toBe(0);
  });

  it('times out with TimeoutError, and a reply after it is ignored', async () => {
    const late: (() => void)[] = [];
    service.subscribe(subject('slow'), {
      callback: (_, msg) => {
        late.push(() => msg.respond(encoder.encode('late')));
      },
    });
    await service.flush();
    const started = Date.now();
    const error = await errorOf(
      RequestMux.of(gateway).request(subject('slow'), encoder.encode('{}'), { timeoutMs: 300 }),
    );
    expect(error).toBeInstanceOf(errors.TimeoutError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    late.forEach((reply) => reply());
    await service.flush();
    await gateway.flush();
    expect(RequestMux.of(gateway).waiting).toBe(0);
  });

  it('fails a publish the server refuses at once, with its PermissionViolationError', async () => {
    // numbers-billing asks no other service (BUS_GRANTS).
    const forbidden = rpcSubject({ prefix }, 'lostfound.v1.items.list');
    const started = Date.now();
    const error = await errorOf(RequestMux.of(service).request(forbidden, encoder.encode('{}'), { timeoutMs: 5000 }));
    expect(error).toBeInstanceOf(errors.PermissionViolationError);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('fails the waiting requests when the server refuses the inbox, and subscribes anew for the next one', async () => {
    // A gateway connection told another service's inbox: its user may not read it.
    const misread = await connect({ ...testNatsOptions('gateway'), inboxPrefix: inboxPrefix('numbers-billing') });
    connections.push(misread);
    const first = RequestMux.of(misread);
    const error = await errorOf(first.request(subject('echo'), encoder.encode('x'), { timeoutMs: 5000 }));
    expect(error).toBeInstanceOf(errors.PermissionViolationError);
    expect((error as InstanceType<typeof errors.PermissionViolationError>).operation).toBe('subscription');
    const second = RequestMux.of(misread);
    expect(second).not.toBe(first);
    expect(await errorOf(second.request(subject('echo'), encoder.encode('x'), { timeoutMs: 5000 }))).toBeInstanceOf(
      errors.PermissionViolationError,
    );
  });

  it('ends every waiting request with RequestError when the connection closes', async () => {
    const nc = await connectAs('gateway');
    service.subscribe(subject('never'), { callback: () => undefined });
    await service.flush();
    const waiting = errorOf(RequestMux.of(nc).request(subject('never'), encoder.encode('{}'), { timeoutMs: 10_000 }));
    await nc.flush();
    await nc.close();
    expect(await waiting).toBeInstanceOf(errors.RequestError);
  });
});
