import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import {
  CallsRpc,
  DataSettingsRpc,
  NumberProvisionedEvent,
  RetentionRpc,
  SimulatedProviderRpc,
  type NumberStateChanged,
} from '@switchboard/contracts';
import { CallDataService } from '../src/call-data/call-data.service';
import { CallReportsService } from '../src/call-reports/call-reports.service';
import { CallsMediaPrisma } from '../src/prisma/calls-media-prisma';
import { OBJECT_STORAGE, type ObjectStorage } from '../src/storage/object-storage';
import { CallsMediaWorld, eventually } from './calls-media.harness';
import { aNumberStateChanged } from './factories/number-state.factory';
import { aProviderCallReport, aSimulatedCall } from './factories/provider-call.factory';

jest.setTimeout(60_000);

let world: CallsMediaWorld;
let app: INestApplicationContext;
let prisma: CallsMediaPrisma;
let storage: ObjectStorage;

beforeAll(async () => {
  world = await CallsMediaWorld.create();
  app = await world.start();
  prisma = app.get(CallsMediaPrisma);
  storage = app.get(OBJECT_STORAGE);
});

afterAll(() => world?.close());
afterEach(() => jest.restoreAllMocks());

const recordingFile = (key: string) => join(world.dataDir, 'calls-media', 'recordings', key);

async function aNumber(): Promise<NumberStateChanged> {
  const state = aNumberStateChanged({ changed_at: '2026-01-01T00:00:00.000Z' });
  await world.publishNumberState(NumberProvisionedEvent, state);
  await eventually(async () => {
    if (!(await prisma.numberState.findFirst({ where: { number_id: state.number_id } })))
      throw new Error(`${state.number_id} not kept yet`);
  });
  return state;
}

describe('a deletion that object storage does not confirm at once', () => {
  it('leaves the call without its recording, answers pending, and the next drain deletes the object', async () => {
    const number = await aNumber();
    const { call_sid } = await world.rpc.request(
      SimulatedProviderRpc.reportCall,
      aSimulatedCall({ to: number.phone_number, started_at: '2026-11-01T10:00:00.000Z' }),
    );
    const key = `${call_sid}.mp3`;
    expect(existsSync(recordingFile(key))).toBe(true);
    jest.spyOn(storage, 'delete').mockRejectedValueOnce(new Error('SlowDown: Please reduce your request rate.'));

    const ctx = { accountId: number.account_id };
    const outcome = await world.rpc.request(
      CallsRpc.deleteRecording,
      { call_id: call_sid, deleted_by: 'key:k_1' },
      ctx,
    );
    expect(outcome).toEqual({ object_pending: true });
    expect(existsSync(recordingFile(key))).toBe(true);
    const call = await world.rpc.request(CallsRpc.get, { call_id: call_sid }, ctx);
    expect(call).toMatchObject({ has_recording: false, recording_deletion: { deleted_by: 'key:k_1' } });
    expect(await prisma.pendingObjectDeletion.findMany()).toEqual([
      expect.objectContaining({ key, call_id: call_sid, attempts: 1, last_error: expect.stringContaining('SlowDown') }),
    ]);
    // Asked again: already gone from the call, nothing more to do.
    expect(
      await world.rpc.request(CallsRpc.deleteRecording, { call_id: call_sid, deleted_by: 'key:k_1' }, ctx),
    ).toEqual({ object_pending: false });

    // The sweep retries every queued object, expired or not.
    expect(await world.rpc.request(RetentionRpc.sweep, {})).toEqual({ recordings_deleted: 0, transcripts_deleted: 0 });
    expect(existsSync(recordingFile(key))).toBe(false);
    expect(await prisma.pendingObjectDeletion.count()).toBe(0);
  });
});

describe('storage modes on a recording the provider already stored', () => {
  it('drops and deletes the stored recording of a no_pii account, and redacts the words', async () => {
    const number = await aNumber();
    const ctx = { accountId: number.account_id };
    await world.rpc.request(DataSettingsRpc.update, { storage_mode: 'no_pii' }, ctx);
    const report = aProviderCallReport({
      to: number.phone_number,
      started_at: new Date('2026-11-02T10:00:00.000Z'),
      transcript: [{ role: 'caller', text: 'Write to me at sam@example.org please.' }],
    });
    const key = `${report.call_sid}.mp3`;
    const stored = await storage.put(key, new Uint8Array([1, 2, 3]), 'audio/mpeg');
    await app.get(CallReportsService).receive({ ...report, recording: { content_type: 'audio/mpeg', stored } });

    await eventually(async () => {
      if (existsSync(recordingFile(key))) throw new Error('the dropped recording is still stored');
    });
    const call = await world.rpc.request(CallsRpc.get, { call_id: report.call_sid }, ctx);
    expect(call).toMatchObject({ has_recording: false, has_transcript: true, recording_deletion: null });
    expect(await world.rpc.request(CallsRpc.transcript, { call_id: report.call_sid }, ctx)).toEqual({
      call_sid: report.call_sid,
      turns: [{ role: 'caller', text: 'Write to me at [redacted:email] please.' }],
    });
    await eventually(async () => {
      if ((await prisma.pendingObjectDeletion.count()) > 0) throw new Error('still queued');
    });
  });

  it('never writes the audio of a metadata_only account', async () => {
    const number = await aNumber();
    const ctx = { accountId: number.account_id };
    await world.rpc.request(DataSettingsRpc.update, { storage_mode: 'metadata_only' }, ctx);
    const put = jest.spyOn(storage, 'put');
    const { call_sid } = await world.rpc.request(
      SimulatedProviderRpc.reportCall,
      aSimulatedCall({
        to: number.phone_number,
        analysis: { summary: 'Sam at sam@example.org', sentiment: 'neutral' },
      }),
    );
    expect(put).not.toHaveBeenCalled();
    const call = await world.rpc.request(CallsRpc.get, { call_id: call_sid }, ctx);
    expect(call).toMatchObject({
      has_recording: false,
      has_transcript: false,
      analysis: { summary: null, sentiment: 'neutral', custom: {} },
    });
  });
});

describe('the retention sweep', () => {
  it('deletes each expired call once when two replicas sweep at the same time', async () => {
    const number = await aNumber();
    const calls = 1_200;
    await prisma.$executeRawUnsafe(
      `INSERT INTO calls (id, account_id, number_id, phone_number, caller, direction, status, outcome, duration_sec,
                          started_at, has_transcript, recording_key, recording_size, recording_etag, summary)
       SELECT 'CAtwice' || i, $1, $2, $3, '+14155550199', 'inbound', 'completed', 'order_placed', 60,
              '2026-01-01T00:00:00Z'::timestamptz + make_interval(secs => i), false, 'CAtwice' || i || '.mp3', 1, 'e', 'Hi'
         FROM generate_series(1, ${calls}) AS i`,
      number.account_id,
      number.number_id,
      number.phone_number,
    );
    await world.rpc.request(
      DataSettingsRpc.update,
      { recordings_days: 30, transcripts_days: 30 },
      {
        accountId: number.account_id,
      },
    );
    const sweeper = app.get(CallDataService);
    const deletes = jest.spyOn(storage, 'delete');
    const now = new Date('2026-12-01T00:00:00Z');
    const [a, b] = await Promise.all([sweeper.sweep(now), sweeper.sweep(now)]);
    const rest = await sweeper.sweep(now);
    expect(a.recordings_deleted + b.recordings_deleted + rest.recordings_deleted).toBe(calls);
    expect(a.transcripts_deleted + b.transcripts_deleted + rest.transcripts_deleted).toBe(calls);
    expect(await prisma.call.count({ where: { account_id: number.account_id, NOT: { recording_key: null } } })).toBe(0);
    // Each object deleted once (a key is deleted again only when storage refused it, which it did not here).
    const keys = deletes.mock.calls.map(([key]) => key).filter((key) => key.startsWith('CAtwice'));
    expect(keys).toHaveLength(calls);
    expect(new Set(keys).size).toBe(calls);
    expect(await prisma.pendingObjectDeletion.count()).toBe(0);
  });
});
