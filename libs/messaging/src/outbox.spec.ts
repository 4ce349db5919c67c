import { defineEvent, type StreamDefinition } from '@switchboard/contracts';
import { writeOutboxEvent, type OutboxRow } from './outbox';

class ProbeData {
  value!: number;
  at!: Date;
}

const stream: StreamDefinition = { name: 'PROBE', types: 'probe.>' };
const ProbeEvent = defineEvent('probe.happened', stream, ProbeData);

describe('writeOutboxEvent', () => {
  it('creates one outbox row in the given transaction: the envelope as plain JSON, the cause carried', async () => {
    const created: OutboxRow[] = [];
    const tx = { outboxEvent: { create: async ({ data }: { data: OutboxRow }) => void created.push(data) } };

    await writeOutboxEvent(
      tx,
      ProbeEvent,
      { value: 7, at: new Date('2026-01-02T03:04:05.000Z') },
      { correlationId: 'req_1', causationId: 'msg_0', id: 'evt_1' },
    );

    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({
      id: 'evt_1',
      type: 'probe.happened',
      payload: {
        id: 'evt_1',
        type: 'probe.happened',
        correlation_id: 'req_1',
        causation_id: 'msg_0',
        data: { value: 7, at: '2026-01-02T03:04:05.000Z' },
      },
    });
    expect(typeof created[0].payload.occurred_at).toBe('string');
  });
});
