import {
  NumberProvisionedEvent,
  SimulatedProviderRpc,
  STREAMS,
  type CallCompletedData,
  type EventEnvelope,
} from '@switchboard/contracts';
import { OutboxRelay } from '@switchboard/service-runtime';
import { callCompletedEventId } from '../src/call-reports/call-event-id';
import { CallReportsService } from '../src/call-reports/call-reports.service';
import { CallsMediaPrisma } from '../src/prisma/calls-media-prisma';
import { CallsMediaWorld, eventually } from './calls-media.harness';
import { aNumberStateChanged } from './factories/number-state.factory';
import { aProviderCallReport, aSimulatedCall } from './factories/provider-call.factory';

jest.setTimeout(60_000);

let world: CallsMediaWorld;

beforeEach(async () => {
  world = await CallsMediaWorld.create();
});

afterEach(async () => {
  await world?.close();
});

async function messagesFor(callSid: string): Promise<{ msgId: string | undefined; sid: string }[]> {
  return (await world.streamMessages(STREAMS.calls))
    .map((msg) => ({
      msgId: msg.header?.get('Nats-Msg-Id'),
      sid: msg.json<EventEnvelope<CallCompletedData>>().data.call_sid,
    }))
    .filter((m) => m.sid === callSid);
}

async function exactlyOneMessageFor(callSid: string): Promise<void> {
  await eventually(async () => {
    const found = await messagesFor(callSid);
    if (found.length === 0) throw new Error('not published yet');
    expect(found).toEqual([{ msgId: callCompletedEventId(callSid), sid: callSid }]);
  });
}

describe('call.completed', () => {
  it('reaches JetStream exactly once when the service dies between commit and publish', async () => {
    const first = await world.start();
    const number = aNumberStateChanged();
    await world.publishNumberState(NumberProvisionedEvent, number);
    // The relay stops: the call and its outbox row commit, nothing is published, then the process goes away.
    await first.get(OutboxRelay).stop();
    const { call_sid } = await world.rpc.request(
      SimulatedProviderRpc.reportCall,
      aSimulatedCall({ to: number.phone_number }),
    );
    const row = await first
      .get(CallsMediaPrisma)
      .outboxEvent.findUniqueOrThrow({ where: { id: callCompletedEventId(call_sid) } });
    expect(row.published_at).toBeNull();
    expect(await messagesFor(call_sid)).toEqual([]);
    await first.close();

    const second = await world.start();
    await exactlyOneMessageFor(call_sid);
    await eventually(async () => {
      const published = await second
        .get(CallsMediaPrisma)
        .outboxEvent.findUniqueOrThrow({ where: { id: callCompletedEventId(call_sid) } });
      expect(published.published_at).not.toBeNull();
    });
  });

  it('is not duplicated when the relay publishes again after dying before it marked the row published', async () => {
    const app = await world.start();
    const prisma = app.get(CallsMediaPrisma);
    const number = aNumberStateChanged();
    await world.publishNumberState(NumberProvisionedEvent, number);
    const { call_sid } = await world.rpc.request(
      SimulatedProviderRpc.reportCall,
      aSimulatedCall({ to: number.phone_number }),
    );
    await exactlyOneMessageFor(call_sid);
    await eventually(async () => {
      expect(
        (await prisma.outboxEvent.findUniqueOrThrow({ where: { id: callCompletedEventId(call_sid) } })).published_at,
      ).not.toBeNull();
    });

    // As if the relay had published and then died before its UPDATE: the row is unpublished again.
    await prisma.outboxEvent.update({ where: { id: callCompletedEventId(call_sid) }, data: { published_at: null } });
    app.get(OutboxRelay).kick();
    await eventually(async () => {
      expect(
        (await prisma.outboxEvent.findUniqueOrThrow({ where: { id: callCompletedEventId(call_sid) } })).published_at,
      ).not.toBeNull();
    });
    expect(await messagesFor(call_sid)).toHaveLength(1);
  });

  it('is published once per call when the provider repeats the report after a restart', async () => {
    const first = await world.start();
    const number = aNumberStateChanged();
    await world.publishNumberState(NumberProvisionedEvent, number);
    const report = aProviderCallReport({ to: number.phone_number });
    await eventually(async () => expect((await first.get(CallReportsService).receive(report)).state).toBe('recorded'));
    await first.close();

    const second = await world.start();
    expect(await second.get(CallReportsService).receive(report)).toEqual({
      call_sid: report.call_sid,
      state: 'recorded',
      repeated: true,
    });
    await exactlyOneMessageFor(report.call_sid);
  });
});
