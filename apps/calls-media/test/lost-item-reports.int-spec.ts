import type { INestApplicationContext } from '@nestjs/common';
import {
  LostItemReportRpc,
  NumberProvisionedEvent,
  ServiceError,
  SimulatedProviderRpc,
  STREAMS,
  type EventEnvelope,
  type LostItemReportedData,
  type NumberStateChanged,
} from '@switchboard/contracts';
import { lostItemReportedEventId } from '../src/call-reports/call-event-id';
import { CallReportsService } from '../src/call-reports/call-reports.service';
import { CallsMediaPrisma } from '../src/prisma/calls-media-prisma';
import { CallsMediaWorld, eventually } from './calls-media.harness';
import { aNumberStateChanged, anAccountId } from './factories/number-state.factory';
import { aProviderCallReport, aSimulatedCall } from './factories/provider-call.factory';

jest.setTimeout(60_000);

let world: CallsMediaWorld;
let app: INestApplicationContext;
let prisma: CallsMediaPrisma;

beforeAll(async () => {
  world = await CallsMediaWorld.create();
  app = await world.start({ SIMULATED_CALL_SETTLE_MS: '1500' });
  prisma = app.get(CallsMediaPrisma);
});

afterAll(async () => {
  await world?.close();
});

async function aNumber(): Promise<NumberStateChanged> {
  const state = aNumberStateChanged({ changed_at: '2026-01-01T00:00:00.000Z' });
  await world.publishNumberState(NumberProvisionedEvent, state);
  await eventually(async () => {
    if ((await prisma.numberState.count({ where: { number_id: state.number_id } })) === 0)
      throw new Error('not kept yet');
  });
  return state;
}

const lostItem = {
  category: 'umbrella',
  description: 'Green umbrella, duck handle',
  color: 'green',
  where_lost: 'Platform 4',
  lost_at: '2026-11-20',
  caller_name: 'Sam Lee',
};

async function lostItemEvents(): Promise<EventEnvelope<LostItemReportedData>[]> {
  const messages = await world.streamMessages(STREAMS.calls);
  return messages
    .map((message) => message.json<EventEnvelope<LostItemReportedData>>())
    .filter((envelope) => envelope.type === 'call.lost_item_reported');
}

describe('calls-media: lost-item reports (docs/adr/0079)', () => {
  it('keeps the report with its call and publishes call.lost_item_reported with ids and category only', async () => {
    const number = await aNumber();
    const caller = '+14155550188';
    const { call_sid } = await world.rpc.request(
      SimulatedProviderRpc.reportCall,
      aSimulatedCall({ to: number.phone_number, caller, outcome: 'lost_item_report', lost_item: lostItem }),
    );

    const event = await eventually(async () => {
      const found = (await lostItemEvents()).find((envelope) => envelope.data.call_sid === call_sid);
      if (!found) throw new Error('not published yet');
      return found;
    });
    expect(event.id).toBe(lostItemReportedEventId(call_sid));
    expect(event.data).toEqual({
      call_sid,
      account_id: number.account_id,
      number_id: number.number_id,
      category: 'umbrella',
      reported_at: expect.any(String),
    });
    // No phone number (caller or service), no name, none of the caller's words.
    const text = JSON.stringify(event);
    for (const secret of [caller, number.phone_number, 'Sam Lee', 'duck', 'Platform 4'])
      expect(text).not.toContain(secret);

    const kept = await world.rpc.request(LostItemReportRpc, { call_sid, account_id: number.account_id });
    expect(kept).toEqual({
      call_sid,
      number_id: number.number_id,
      caller,
      caller_name: 'Sam Lee',
      category: 'umbrella',
      description: lostItem.description,
      color: 'green',
      where_lost: 'Platform 4',
      lost_at: '2026-11-20',
    });
  });

  it("answers not_found for another account's call, and for a call without a report", async () => {
    const number = await aNumber();
    const { call_sid } = await world.rpc.request(
      SimulatedProviderRpc.reportCall,
      aSimulatedCall({ to: number.phone_number, outcome: 'lost_item_report', lost_item: lostItem }),
    );
    const other = await world.rpc.request(
      SimulatedProviderRpc.reportCall,
      aSimulatedCall({ to: number.phone_number, outcome: 'order_placed' }),
    );
    for (const query of [
      { call_sid, account_id: anAccountId() },
      { call_sid: other.call_sid, account_id: number.account_id },
    ]) {
      const error = await world.rpc.request(LostItemReportRpc, query).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ServiceError);
      expect((error as ServiceError).code).toBe('not_found');
    }
    expect(
      await prisma.outboxEvent.count({
        where: { type: 'call.lost_item_reported', payload: { path: ['data', 'call_sid'], equals: other.call_sid } },
      }),
    ).toBe(0);
  });

  it('writes one report and one event for a repeated provider report, also one that waited for its number', async () => {
    const reports = app.get(CallReportsService);
    const number = aNumberStateChanged({ changed_at: '2026-01-01T00:00:00.000Z' });
    const report = aProviderCallReport({
      to: number.phone_number,
      outcome: 'lost_item_report',
      lost_item: lostItem,
      started_at: new Date('2026-06-01T12:00:00Z'),
    });
    // Before the number is known: stored pending, with the details in its JSON.
    expect((await reports.receive(report)).state).toBe('pending');
    expect((await reports.receive(report)).repeated).toBe(true);
    await world.publishNumberState(NumberProvisionedEvent, number);
    await eventually(async () => {
      if ((await reports.settle(report.call_sid)) !== 'recorded') throw new Error('not recorded yet');
    });
    expect((await reports.receive(report)).repeated).toBe(true);
    expect(await prisma.lostItemReport.count({ where: { call_sid: report.call_sid } })).toBe(1);
    expect(await prisma.lostItemReport.findUniqueOrThrow({ where: { call_sid: report.call_sid } })).toMatchObject({
      caller_name: 'Sam Lee',
      account_id: number.account_id,
    });
    expect(await prisma.outboxEvent.count({ where: { id: lostItemReportedEventId(report.call_sid) } })).toBe(1);
  });

  it('keeps no report for another outcome, even when details came with it', async () => {
    const reports = app.get(CallReportsService);
    const number = await aNumber();
    const report = aProviderCallReport({ to: number.phone_number, outcome: 'order', lost_item: lostItem });
    expect((await reports.receive(report)).state).toBe('recorded');
    expect(await prisma.lostItemReport.count({ where: { call_sid: report.call_sid } })).toBe(0);
    expect(await prisma.outboxEvent.count({ where: { id: lostItemReportedEventId(report.call_sid) } })).toBe(0);
  });
});
