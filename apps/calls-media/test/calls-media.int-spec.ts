import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import {
  CallCompletedEvent,
  CallsRpc,
  NumberAnalysisFieldsChangedEvent,
  NumberProvisionedEvent,
  NumberReleasedEvent,
  NumberUpdatedEvent,
  RECORDING_CHUNK_MAX_BYTES,
  ServiceError,
  SimulatedProviderRpc,
  STREAMS,
  type CallCompletedData,
  type EventEnvelope,
  type NumberStateChanged,
  type SimulateProviderCallBody,
} from '@switchboard/contracts';
import { callCompletedEventId } from '../src/call-reports/call-event-id';
import { CallReportsService } from '../src/call-reports/call-reports.service';
import { CallsMediaPrisma } from '../src/prisma/calls-media-prisma';
import { beepRecordingMp3 } from '../src/telephony/mp3/beep-recording';
import { CallsMediaWorld, eventually } from './calls-media.harness';
import { aNumberStateChanged, anAccountId, aUsPhoneNumber } from './factories/number-state.factory';
import { aProviderCallReport, aSimulatedCall } from './factories/provider-call.factory';

jest.setTimeout(60_000);

const GRACE_MS = 2000;
let world: CallsMediaWorld;
let app: INestApplicationContext;
let prisma: CallsMediaPrisma;

beforeAll(async () => {
  world = await CallsMediaWorld.create();
  app = await world.start({
    CALL_ATTRIBUTION_GRACE_MS: String(GRACE_MS),
    CALL_ATTRIBUTION_SWEEP_MS: '200',
    SIMULATED_CALL_SETTLE_MS: '1500',
  });
  prisma = app.get(CallsMediaPrisma);
});

afterAll(async () => {
  await world?.close();
});

/** Publishes the number and waits until calls-media has kept its state. */
async function aNumber(
  overrides: Partial<NumberStateChanged> = {},
  event = NumberProvisionedEvent,
): Promise<NumberStateChanged> {
  const state = aNumberStateChanged({ changed_at: '2026-01-01T00:00:00.000Z', ...overrides });
  await world.publishNumberState(event, state);
  await eventually(async () => {
    const kept = await prisma.numberState.findUnique({
      where: { number_id_version: { number_id: state.number_id, version: BigInt(state.version) } },
    });
    if (!kept) throw new Error(`state ${state.number_id} v${state.version} not kept yet`);
  });
  return state;
}

function report(body: SimulateProviderCallBody): Promise<{ call_sid: string }> {
  return world.rpc.request(SimulatedProviderRpc.reportCall, body);
}

function as(accountId: string) {
  return { accountId };
}

async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

async function readAll(accountId: string, callId: string, size: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let offset = 0; offset < size; offset += RECORDING_CHUNK_MAX_BYTES) {
    const chunk = await world.rpc.request(
      CallsRpc.readRecording,
      { call_id: callId, offset, length: RECORDING_CHUNK_MAX_BYTES },
      as(accountId),
    );
    parts.push(Buffer.from(chunk.data, 'base64'));
  }
  return Buffer.concat(parts);
}

async function completedEventsFor(
  callSid: string,
): Promise<{ msgId: string | undefined; envelope: EventEnvelope<CallCompletedData> }[]> {
  const messages = await world.streamMessages(STREAMS.calls);
  return messages
    .map((msg) => ({ msgId: msg.header?.get('Nats-Msg-Id'), envelope: msg.json<EventEnvelope<CallCompletedData>>() }))
    .filter((m) => m.envelope.data.call_sid === callSid);
}

describe('a call reported by the simulated provider', () => {
  let number: NumberStateChanged;
  let callSid: string;
  const body = () =>
    aSimulatedCall({
      to: number.phone_number,
      caller: '+14155550199',
      duration_sec: 120,
      outcome: 'order_placed',
      started_at: '2026-03-04T05:06:07.000Z',
      transcript: [
        { role: 'agent', text: 'Pizza Planet, how can I help?' },
        { role: 'caller', text: 'One large margherita.' },
        { role: 'agent', text: 'Ready in twenty minutes.' },
      ],
      recording: true,
    });

  beforeAll(async () => {
    number = await aNumber();
    ({ call_sid: callSid } = await report(body()));
  });

  it('answers with a provider call SID', () => {
    expect(callSid).toMatch(/^CA[0-9a-f]{32}$/);
  });

  it("is listed for the number's owner with every field of the spec's Call", async () => {
    const list = await world.rpc.request(CallsRpc.list, {}, as(number.account_id));
    expect(list).toEqual({
      data: [
        {
          id: callSid,
          number_id: number.number_id,
          phone_number: number.phone_number,
          caller: '+14155550199',
          direction: 'inbound',
          status: 'completed',
          outcome: 'order_placed',
          duration_sec: 120,
          started_at: '2026-03-04T05:06:07.000Z',
          has_recording: true,
          has_transcript: true,
          analysis: { summary: null, sentiment: 'unknown', successful: null, custom: {} },
          recording_deletion: null,
          transcript_deletion: null,
        },
      ],
      has_more: false,
    });
  });

  it('reads back its transcript, turns in the order spoken', async () => {
    const transcript = await world.rpc.request(CallsRpc.transcript, { call_id: callSid }, as(number.account_id));
    expect(transcript).toEqual({ call_sid: callSid, turns: body().transcript });
  });

  it('reads back its recording byte for byte in bounded chunks: the MP3 of the call length', async () => {
    const info = await world.rpc.request(CallsRpc.recording, { call_id: callSid }, as(number.account_id));
    const expected = beepRecordingMp3(120);
    expect(info).toEqual({
      call_sid: callSid,
      content_type: 'audio/mpeg',
      size: expected.length,
      etag: createHash('md5').update(expected).digest('hex'),
    });
    expect(info.size).toBeGreaterThan(RECORDING_CHUNK_MAX_BYTES);
    expect((await readAll(number.account_id, callSid, info.size)).equals(expected)).toBe(true);
  });

  it('reads any byte range of the recording, and nothing past its end', async () => {
    const expected = beepRecordingMp3(120);
    const range = await world.rpc.request(
      CallsRpc.readRecording,
      { call_id: callSid, offset: 1000, length: 10 },
      as(number.account_id),
    );
    expect(Buffer.from(range.data, 'base64').equals(expected.subarray(1000, 1010))).toBe(true);
    const tail = await world.rpc.request(
      CallsRpc.readRecording,
      { call_id: callSid, offset: expected.length - 4, length: 100 },
      as(number.account_id),
    );
    expect(Buffer.from(tail.data, 'base64').equals(expected.subarray(expected.length - 4))).toBe(true);
    const past = await world.rpc.request(
      CallsRpc.readRecording,
      { call_id: callSid, offset: expected.length, length: 100 },
      as(number.account_id),
    );
    expect(past.data).toBe('');
  });

  it('refuses to read more than one chunk at a time', async () => {
    const error = await failure(
      world.rpc.request(
        CallsRpc.readRecording,
        { call_id: callSid, offset: 0, length: RECORDING_CHUNK_MAX_BYTES + 1 },
        as(number.account_id),
      ),
    );
    expect(error.code).toBe('invalid_request');
  });

  it('keeps the recording in DATA_DIR/calls-media/recordings', () => {
    expect(existsSync(join(world.dataDir, 'calls-media', 'recordings', `${callSid}.mp3`))).toBe(true);
  });

  it('shows another account none of it: no call listed, transcript and recording not_found', async () => {
    const stranger = anAccountId();
    expect(await world.rpc.request(CallsRpc.list, {}, as(stranger))).toEqual({ data: [], has_more: false });
    expect((await failure(world.rpc.request(CallsRpc.transcript, { call_id: callSid }, as(stranger)))).code).toBe(
      'not_found',
    );
    expect((await failure(world.rpc.request(CallsRpc.recording, { call_id: callSid }, as(stranger)))).code).toBe(
      'not_found',
    );
    expect(
      (
        await failure(
          world.rpc.request(CallsRpc.readRecording, { call_id: callSid, offset: 0, length: 10 }, as(stranger)),
        )
      ).code,
    ).toBe('not_found');
  });

  it('publishes call.completed once, with the spec fields and the account id, its message id derived from the call SID', async () => {
    const events = await eventually(async () => {
      const found = await completedEventsFor(callSid);
      if (found.length === 0) throw new Error('call.completed not published yet');
      return found;
    });
    expect(events).toHaveLength(1);
    expect(events[0].msgId).toBe(callCompletedEventId(callSid));
    expect(events[0].envelope).toMatchObject({
      id: callCompletedEventId(callSid),
      type: CallCompletedEvent.type,
      causation_id: callSid,
    });
    expect(events[0].envelope.data).toEqual({
      call_sid: callSid,
      account_id: number.account_id,
      number_id: number.number_id,
      phone_number: number.phone_number,
      caller: '+14155550199',
      direction: 'inbound',
      status: 'completed',
      outcome: 'order_placed',
      duration_sec: 120,
      started_at: '2026-03-04T05:06:07.000Z',
      has_recording: true,
      has_transcript: true,
      analysis: { summary: null, sentiment: 'unknown', successful: null, custom: {} },
    });
  });
});

describe('calls without a recording or a transcript', () => {
  it('answer no_recording for the recording and not_found for the transcript', async () => {
    const number = await aNumber();
    const { call_sid } = await report(
      aSimulatedCall({ to: number.phone_number, recording: false, transcript: undefined }),
    );
    const [call] = (await world.rpc.request(CallsRpc.list, {}, as(number.account_id))).data;
    expect(call).toMatchObject({ id: call_sid, has_recording: false, has_transcript: false });
    expect(
      (await failure(world.rpc.request(CallsRpc.recording, { call_id: call_sid }, as(number.account_id)))).code,
    ).toBe('no_recording');
    expect(
      (await failure(world.rpc.request(CallsRpc.transcript, { call_id: call_sid }, as(number.account_id)))).code,
    ).toBe('not_found');
  });

  it('count an empty transcript as none', async () => {
    const number = await aNumber();
    const { call_sid } = await report(aSimulatedCall({ to: number.phone_number, transcript: [] }));
    expect(
      (await failure(world.rpc.request(CallsRpc.transcript, { call_id: call_sid }, as(number.account_id)))).code,
    ).toBe('not_found');
  });

  it('answer not_found for a call id that does not exist', async () => {
    const number = await aNumber();
    expect(
      (
        await failure(
          world.rpc.request(
            CallsRpc.transcript,
            { call_id: 'CA00000000000000000000000000000000' },
            as(number.account_id),
          ),
        )
      ).code,
    ).toBe('not_found');
    expect(
      (await failure(world.rpc.request(CallsRpc.recording, { call_id: 'nonsense' }, as(number.account_id)))).code,
    ).toBe('not_found');
  });
});

describe('a report the provider repeats', () => {
  it('creates one call, one outbox row and one call.completed message, even when the repeats race', async () => {
    const number = await aNumber();
    const service = app.get(CallReportsService);
    const repeated = aProviderCallReport({
      to: number.phone_number,
      recording: { content_type: 'audio/mpeg', bytes: beepRecordingMp3(2) },
    });
    const first = await service.receive(repeated);
    const again = await Promise.all([service.receive(repeated), service.receive(repeated), service.receive(repeated)]);
    expect(first).toEqual({ call_sid: repeated.call_sid, state: 'recorded', repeated: false });
    expect(again.every((outcome) => outcome.repeated && outcome.state === 'recorded')).toBe(true);
    expect((await world.rpc.request(CallsRpc.list, {}, as(number.account_id))).data.map((c) => c.id)).toEqual([
      repeated.call_sid,
    ]);
    expect(await prisma.outboxEvent.count({ where: { id: callCompletedEventId(repeated.call_sid) } })).toBe(1);
    await eventually(async () => {
      if ((await completedEventsFor(repeated.call_sid)).length !== 1) throw new Error('not published yet');
    });
  });

  it('creates one call when first copies arrive at the same moment', async () => {
    const number = await aNumber();
    const service = app.get(CallReportsService);
    const repeated = aProviderCallReport({ to: number.phone_number });
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => service.receive(repeated)));
    expect(outcomes.filter((o) => !o.repeated)).toHaveLength(1);
    expect(await prisma.call.count({ where: { id: repeated.call_sid } })).toBe(1);
  });
});

describe('the calls list', () => {
  let accountId: string;
  let first: NumberStateChanged;
  let second: NumberStateChanged;
  const sids: Record<string, string> = {};

  beforeAll(async () => {
    accountId = anAccountId();
    first = await aNumber({ account_id: accountId });
    second = await aNumber({ account_id: accountId });
    const plan: [string, NumberStateChanged, string][] = [
      ['a', first, '2026-05-01T10:00:00.000Z'],
      ['b', second, '2026-05-02T10:00:00.000Z'],
      ['c', first, '2026-05-03T10:00:00.000Z'],
      ['d', second, '2026-05-03T10:00:00.000Z'],
      ['e', first, '2026-05-04T10:00:00.000Z'],
    ];
    for (const [name, number, startedAt] of plan) {
      sids[name] = (
        await report(aSimulatedCall({ to: number.phone_number, started_at: startedAt, recording: false }))
      ).call_sid;
    }
  });

  const list = (query: object = {}) => world.rpc.request(CallsRpc.list, query, as(accountId));
  const ids = (names: string) => names.split('').map((name) => sids[name]);

  it("lists the account's calls across all its numbers, newest first (later report first on a tie)", async () => {
    expect((await list()).data.map((c) => c.id)).toEqual(ids('edcba'));
  });

  it('pages with limit, starting_after and has_more without skipping or repeating a call', async () => {
    const page1 = await list({ limit: 2 });
    expect({ ids: page1.data.map((c) => c.id), has_more: page1.has_more }).toEqual({ ids: ids('ed'), has_more: true });
    const page2 = await list({ limit: 2, starting_after: page1.data[1].id });
    expect({ ids: page2.data.map((c) => c.id), has_more: page2.has_more }).toEqual({ ids: ids('cb'), has_more: true });
    const page3 = await list({ limit: 2, starting_after: page2.data[1].id });
    expect({ ids: page3.data.map((c) => c.id), has_more: page3.has_more }).toEqual({ ids: ids('a'), has_more: false });
  });

  it('filters by number, in either id form', async () => {
    expect((await list({ number_id: first.number_id })).data.map((c) => c.id)).toEqual(ids('eca'));
    expect((await list({ number_id: second.number_id.replace('num_', '') })).data.map((c) => c.id)).toEqual(ids('db'));
  });

  it('filters by start time: since inclusive, until exclusive', async () => {
    expect(
      (await list({ since: '2026-05-02T10:00:00.000Z', until: '2026-05-04T10:00:00.000Z' })).data.map((c) => c.id),
    ).toEqual(ids('dcb'));
  });

  it('refuses a cursor that is not one of the account calls, and since after until, with invalid_request', async () => {
    expect((await failure(list({ starting_after: 'CA00000000000000000000000000000000' }))).code).toBe(
      'invalid_request',
    );
    expect((await failure(list({ since: '2026-05-04T00:00:00Z', until: '2026-05-01T00:00:00Z' }))).code).toBe(
      'invalid_request',
    );
  });
});

describe('calls to numbers nobody owns', () => {
  it('are refused at once, storing nothing, when numbers-billing says the number is not in service', async () => {
    const to = aUsPhoneNumber();
    world.standings.set(to, { in_service: false, reason: 'released', held_since: null });
    const before = await prisma.callReport.count();
    await expect(report(aSimulatedCall({ to, recording: true }))).rejects.toMatchObject({
      code: 'number_not_in_service',
      message: expect.stringContaining(`to ${to} was released before`),
    });
    world.standings.set(to, { in_service: false, reason: 'unknown', held_since: null });
    await expect(report(aSimulatedCall({ to, live: { turn_interval_ms: 10 } }))).rejects.toMatchObject({
      code: 'number_not_in_service',
      message: expect.stringContaining('is not a Switchboard number'),
    });
    expect(await prisma.callReport.count()).toBe(before);
    expect(await prisma.simulatedLiveCall.count()).toBe(0);
  });

  it('are accepted from the provider but never recorded, and their audio is deleted after the grace period', async () => {
    const { call_sid } = await report(aSimulatedCall({ to: aUsPhoneNumber(), recording: true }));
    expect(call_sid).toMatch(/^CA[0-9a-f]{32}$/);
    const file = join(world.dataDir, 'calls-media', 'recordings', `${call_sid}.mp3`);
    await eventually(async () => {
      const row = await prisma.callReport.findUniqueOrThrow({ where: { call_sid } });
      if (row.state !== 'discarded') throw new Error(`report still ${row.state}`);
      expect(row).toMatchObject({ reason: 'not_owned', report: null });
      // The audio goes right after the report is marked discarded (marking first means a call attributed at the
      // last moment never loses its recording).
      expect(existsSync(file)).toBe(false);
    }, GRACE_MS + 10_000);
    expect(await prisma.call.count({ where: { id: call_sid } })).toBe(0);
  });

  it('are not recorded when the call started after the number was released', async () => {
    const number = await aNumber({ changed_at: '2026-02-01T00:00:00.000Z' });
    await aNumber(
      { ...number, status: 'released', answering: false, version: '2', changed_at: '2026-02-10T00:00:00.000Z' },
      NumberReleasedEvent,
    );
    const { call_sid } = await report(
      aSimulatedCall({ to: number.phone_number, started_at: '2026-02-11T00:00:00.000Z' }),
    );
    expect(await prisma.call.count({ where: { id: call_sid } })).toBe(0);
    expect((await world.rpc.request(CallsRpc.list, {}, as(number.account_id))).data).toEqual([]);
  });

  it('still go to the old owner when the call was made before the release and reported after it', async () => {
    const number = await aNumber({ changed_at: '2026-02-01T00:00:00.000Z' });
    await aNumber(
      { ...number, status: 'released', answering: false, version: '2', changed_at: '2026-02-10T00:00:00.000Z' },
      NumberReleasedEvent,
    );
    const { call_sid } = await report(
      aSimulatedCall({ to: number.phone_number, started_at: '2026-02-09T23:00:00.000Z' }),
    );
    expect((await world.rpc.request(CallsRpc.list, {}, as(number.account_id))).data.map((c) => c.id)).toEqual([
      call_sid,
    ]);
  });
});

describe('a paused (past_due) number', () => {
  it('takes no call: a report of one is discarded at once, nothing is published', async () => {
    const number = await aNumber();
    await aNumber(
      { ...number, status: 'past_due', answering: false, version: '2', changed_at: '2026-01-02T00:00:00.000Z' },
      NumberUpdatedEvent,
    );
    const { call_sid } = await report(
      aSimulatedCall({ to: number.phone_number, started_at: '2026-01-03T00:00:00.000Z' }),
    );
    expect(await prisma.callReport.findUniqueOrThrow({ where: { call_sid } })).toMatchObject({
      state: 'discarded',
      reason: 'paused',
    });
    expect((await world.rpc.request(CallsRpc.list, {}, as(number.account_id))).data).toEqual([]);
    expect(await prisma.outboxEvent.count({ where: { id: callCompletedEventId(call_sid) } })).toBe(0);
  });
});

describe('a report that arrives before the number event', () => {
  it('waits, and is recorded for the owner as soon as the event comes', async () => {
    const phone = aUsPhoneNumber();
    const early = aProviderCallReport({ to: phone, started_at: new Date('2026-06-01T12:00:00.000Z') });
    expect(await app.get(CallReportsService).receive(early)).toMatchObject({ state: 'pending', repeated: false });
    const number = aNumberStateChanged({ phone_number: phone, changed_at: '2026-06-01T00:00:00.000Z' });
    await world.publishNumberState(NumberProvisionedEvent, number);
    const list = await eventually(async () => {
      const found = await world.rpc.request(CallsRpc.list, {}, as(number.account_id));
      if (found.data.length === 0) throw new Error('not recorded yet');
      return found;
    });
    expect(list.data.map((c) => [c.id, c.number_id])).toEqual([[early.call_sid, number.number_id]]);
  });
});

describe("a call's analysis", () => {
  const analysis = {
    summary: 'Asked for a large margherita.',
    sentiment: 'positive' as const,
    successful: true,
    custom: { order_total: 23.5, size: 'huge', pickup: 'yes', mood: 'happy', note: 'Extra napkins' },
  };

  async function declare(number: NumberStateChanged, version = 1): Promise<void> {
    await world.publishNumberEvent(NumberAnalysisFieldsChangedEvent, {
      number_id: number.number_id,
      account_id: number.account_id,
      analysis_fields: [
        { name: 'order_total', type: 'number', description: 'Total' },
        { name: 'size', type: 'enum', description: 'Size', choices: ['small', 'large'] },
        { name: 'pickup', type: 'boolean', description: 'Pickup' },
        { name: 'note', type: 'string', description: 'Note' },
      ],
      version,
      changed_at: new Date().toISOString(),
    });
    await eventually(async () => {
      const row = await prisma.numberAnalysisFields.findUnique({ where: { number_id: number.number_id } });
      if (row?.version !== version) throw new Error('fields not kept yet');
    });
  }

  it('keeps the values that fit the fields the number declares, drops the rest, and publishes it with the call', async () => {
    const number = await aNumber();
    await declare(number);
    const { call_sid } = await report(aSimulatedCall({ to: number.phone_number, analysis }));
    const call = await world.rpc.request(CallsRpc.get, { call_id: call_sid }, as(number.account_id));
    const kept = {
      summary: 'Asked for a large margherita.',
      sentiment: 'positive',
      successful: true,
      custom: { order_total: 23.5, note: 'Extra napkins' },
    };
    expect(call.analysis).toEqual(kept);
    const events = await eventually(async () => {
      const found = (await world.streamMessages(STREAMS.calls))
        .map((msg) => msg.json<EventEnvelope<CallCompletedData>>())
        .filter((envelope) => envelope.data.call_sid === call_sid);
      if (found.length === 0) throw new Error('not published yet');
      return found;
    });
    expect(events[0].data.analysis).toEqual(kept);
  });

  it('keeps no custom value for a number that declares none, and the empty analysis when none came', async () => {
    const number = await aNumber();
    const { call_sid } = await report(aSimulatedCall({ to: number.phone_number, analysis }));
    const call = await world.rpc.request(CallsRpc.get, { call_id: call_sid }, as(number.account_id));
    expect(call.analysis).toEqual({ ...analysis, custom: {} });
    const plain = await report(aSimulatedCall({ to: number.phone_number }));
    expect(
      (await world.rpc.request(CallsRpc.get, { call_id: plain.call_sid }, as(number.account_id))).analysis,
    ).toEqual({ summary: null, sentiment: 'unknown', successful: null, custom: {} });
  });

  it('travels with a report that waits for its number', async () => {
    const phone = aUsPhoneNumber();
    const early = aProviderCallReport({
      to: phone,
      started_at: new Date('2026-06-01T12:00:00.000Z'),
      analysis: { summary: 'Waited.', sentiment: 'neutral', successful: false, custom: { order_total: 9 } },
    });
    expect(await app.get(CallReportsService).receive(early)).toMatchObject({ state: 'pending' });
    const number = aNumberStateChanged({ phone_number: phone, changed_at: '2026-06-01T00:00:00.000Z' });
    await declare(number);
    await world.publishNumberState(NumberProvisionedEvent, number);
    const call = await eventually(() =>
      world.rpc.request(CallsRpc.get, { call_id: early.call_sid }, as(number.account_id)),
    );
    expect(call.analysis).toEqual({
      summary: 'Waited.',
      sentiment: 'neutral',
      successful: false,
      custom: { order_total: 9 },
    });
  });
});

describe('a waiting report settled by several workers at once', () => {
  it('is recorded once, with its transcript in order, its recording and one outbox row', async () => {
    const phone = aUsPhoneNumber();
    const audio = beepRecordingMp3(3);
    const service = app.get(CallReportsService);
    const early = aProviderCallReport({
      to: phone,
      started_at: new Date('2026-07-01T12:00:00.000Z'),
      transcript: [
        { role: 'agent', text: 'Pizza Planet.' },
        { role: 'caller', text: 'Two calzones.' },
        { role: 'agent', text: 'Fifteen minutes.' },
      ],
      recording: { content_type: 'audio/mpeg', bytes: audio },
    });
    expect(await service.receive(early)).toMatchObject({ state: 'pending', repeated: false });
    // The owner appears without an event (no consumer settles it), then five workers race to settle it.
    const number = aNumberStateChanged({ phone_number: phone, changed_at: '2026-07-01T00:00:00.000Z' });
    const { number_id, account_id, phone_number, status, answering } = number;
    await prisma.numberState.create({
      data: {
        number_id,
        account_id,
        phone_number,
        status,
        answering,
        version: BigInt(number.version),
        changed_at: new Date(number.changed_at),
      },
    });
    const states = await Promise.all(Array.from({ length: 5 }, () => service.settle(early.call_sid)));
    expect(states).toEqual(Array(5).fill('recorded'));
    expect(await prisma.call.count({ where: { id: early.call_sid } })).toBe(1);
    expect(await prisma.outboxEvent.count({ where: { id: callCompletedEventId(early.call_sid) } })).toBe(1);
    expect(await prisma.callReport.findUniqueOrThrow({ where: { call_sid: early.call_sid } })).toMatchObject({
      state: 'recorded',
      report: null,
    });
    expect(await world.rpc.request(CallsRpc.transcript, { call_id: early.call_sid }, as(number.account_id))).toEqual({
      call_sid: early.call_sid,
      turns: early.transcript,
    });
    expect(await world.rpc.request(CallsRpc.recording, { call_id: early.call_sid }, as(number.account_id))).toEqual({
      call_sid: early.call_sid,
      content_type: 'audio/mpeg',
      size: audio.length,
      etag: createHash('md5').update(audio).digest('hex'),
    });
    await eventually(async () => {
      const published = await completedEventsFor(early.call_sid);
      if (published.length !== 1) throw new Error('not published yet');
      expect(published[0].envelope.data).toMatchObject({
        call_sid: early.call_sid,
        number_id: number.number_id,
        has_recording: true,
        has_transcript: true,
      });
    });
  });
});

describe('a repeat of a discarded report', () => {
  it('leaves no audio behind: the copy it stored again is deleted', async () => {
    const number = await aNumber();
    await aNumber(
      { ...number, status: 'past_due', answering: false, version: '2', changed_at: '2026-01-02T00:00:00.000Z' },
      NumberUpdatedEvent,
    );
    const service = app.get(CallReportsService);
    const paused = aProviderCallReport({
      to: number.phone_number,
      started_at: new Date('2026-01-03T00:00:00.000Z'),
      recording: { content_type: 'audio/mpeg', bytes: beepRecordingMp3(1) },
    });
    const file = join(world.dataDir, 'calls-media', 'recordings', `${paused.call_sid}.mp3`);
    expect(await service.receive(paused)).toMatchObject({ state: 'discarded', repeated: false });
    expect(existsSync(file)).toBe(false);
    expect(await service.receive(paused)).toEqual({ call_sid: paused.call_sid, state: 'discarded', repeated: true });
    expect(existsSync(file)).toBe(false);
    expect(await prisma.call.count({ where: { id: paused.call_sid } })).toBe(0);
  });
});

describe('account scoping', () => {
  it('refuses a request that carries no account', async () => {
    expect((await failure(world.rpc.request(CallsRpc.list, {}))).code).toBe('unauthorized');
  });
});
