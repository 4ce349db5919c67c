import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { testNatsOptions } from '@switchboard/testing';
import { AdminClient, startSystem, waitFor, type RunningSystem } from './support';

jest.setTimeout(90_000);

type Letter = { id: string; durable: string; event_id: string | null; error: string; replayed_at: string | null };

/**
 * The operator routes on the dead-letter stream, with every service as its own NATS user: a `number.released` that
 * fails validation is dead-lettered by calls-media's consumer at once; the operator lists, reads and replays it (the
 * replay goes through numbers-billing, the stream's owner), and a second replay sends nothing.
 */
describe('dead letters through the operator API', () => {
  let system: RunningSystem;
  let admin: AdminClient;
  let nc: NatsConnection;

  beforeAll(async () => {
    system = await startSystem({ services: ['numbers-billing', 'calls-media'] });
    admin = new AdminClient(system);
    nc = await connect(testNatsOptions());
  });
  afterAll(async () => {
    await nc?.close();
    await system?.stop();
  });

  const lettersOf = async (eventId: string): Promise<Letter[]> => {
    const answer = await admin.request<{ data: Letter[]; has_more: boolean }>('GET', '/admin/dead-letters?limit=200');
    expect(answer.status).toBe(200);
    return answer.body.data.filter((letter) => letter.event_id === eventId);
  };

  it('lists, shows and replays a dead letter once', async () => {
    const id = randomUUID();
    const body = { id, type: 'number.released', occurred_at: new Date().toISOString(), data: { number_id: 'num_1' } };
    await jetstream(nc).publish(`${system.prefix}.events.v1.number.released`, JSON.stringify(body), { msgID: id });

    const [letter] = await waitFor(async () => {
      const found = await lettersOf(id);
      return found.length > 0 ? found : undefined;
    });
    expect(letter).toMatchObject({ durable: 'calls-media-number-released', replayed_at: null });
    expect(letter.error).toMatch(/^invalid event: /);
    const shown = await admin.request('GET', `/admin/dead-letters/${letter.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ id: letter.id, payload: JSON.stringify(body), attempts: 1 });

    const replay = await admin.request('POST', `/admin/dead-letters/${letter.id}/replay`);
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ republished: true, dead_letter: { id: letter.id } });
    expect(replay.body.dead_letter.replayed_at).toEqual(expect.any(String));
    // Still invalid: the replay is dead-lettered again, as a letter of its own.
    await waitFor(async () => ((await lettersOf(id)).length === 2 ? true : undefined));
    const again = await admin.request('POST', `/admin/dead-letters/${letter.id}/replay`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ republished: false, dead_letter: replay.body.dead_letter });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await lettersOf(id)).toHaveLength(2);
  });

  it('answers 400 for an id that is not one and 404 for one it does not hold, in the error envelope', async () => {
    const bad = await admin.request('GET', '/admin/dead-letters/..%2Fetc');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      error: { code: 'invalid_request', message: 'dead_letter_id must be a dead letter id (<durable>.<sequence>)' },
    });
    const missing = await admin.request('POST', '/admin/dead-letters/calls-media-number-released.999999/replay');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      error: { code: 'not_found', message: 'No dead letter calls-media-number-released.999999.' },
    });
    const limit = await admin.request('GET', '/admin/dead-letters?limit=0');
    expect(limit.status).toBe(400);
    expect(limit.body.error.code).toBe('invalid_request');
  });
});
