import {
  CALLS_MEDIA_DATABASES,
  openCallsMediaDatabase,
  type OpenCallsMediaDatabase,
} from '../../test/calls-media-databases';
import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import {
  NumberAnalysisFieldsChangedEvent,
  STREAMS,
  type EventEnvelope,
  type NumberAnalysisFieldsChanged,
} from '@switchboard/contracts';
import { ensureStream, eventSubject } from '@switchboard/messaging';
import { CallsMediaWorld, eventually } from '../../test/calls-media.harness';
import { aNumberId, anAccountId } from '../../test/factories/number-state.factory';
import { AnalysisFieldsRepository } from './analysis-fields.repository';

jest.setTimeout(60_000);

const ORDER_TOTAL = { name: 'order_total', type: 'number', description: 'The order total in US dollars.' } as const;
const ORDER_KIND = {
  name: 'order_kind',
  type: 'enum',
  description: 'How the order is collected.',
  choices: ['pickup', 'delivery'],
} as const;
const CALLBACK = { name: 'wants_callback', type: 'boolean', description: 'Whether to call back.' } as const;

/** A `number.analysis_fields.changed` payload as numbers-billing publishes it. */
function aChange(overrides: Partial<NumberAnalysisFieldsChanged> = {}): NumberAnalysisFieldsChanged {
  return {
    number_id: aNumberId(),
    account_id: anAccountId(),
    analysis_fields: [{ ...ORDER_TOTAL }, { ...ORDER_KIND, choices: [...ORDER_KIND.choices] }],
    version: 2,
    changed_at: '2026-12-01T10:00:00.000Z',
    ...overrides,
  };
}

/** The statement that keeps the newest version, on both databases a deployment can have. */
describe.each(CALLS_MEDIA_DATABASES)('AnalysisFieldsRepository on %s', (_label, kind) => {
  let database: OpenCallsMediaDatabase;
  let fields: AnalysisFieldsRepository;

  beforeAll(async () => {
    database = await openCallsMediaDatabase(kind);
    fields = new AnalysisFieldsRepository(database.client);
  });

  afterAll(() => database?.close());

  it('answers [] for a number it has heard nothing of', async () => {
    expect(await fields.fieldsOf(aNumberId())).toEqual([]);
  });

  it('keeps the fields in the order given, with choices on enum fields only', async () => {
    const change = aChange({
      analysis_fields: [{ ...CALLBACK }, { ...ORDER_KIND, choices: ['delivery', 'pickup'] }, { ...ORDER_TOTAL }],
    });
    await fields.keep(change);
    expect(await fields.fieldsOf(change.number_id)).toEqual([
      CALLBACK,
      { ...ORDER_KIND, choices: ['delivery', 'pickup'] },
      ORDER_TOTAL,
    ]);
    const row = await database.client.numberAnalysisFields.findUniqueOrThrow({
      where: { number_id: change.number_id },
    });
    expect(row).toMatchObject({
      account_id: change.account_id,
      version: 2,
      changed_at: new Date(change.changed_at),
    });
  });

  it('replaces the fields with a newer version, and keeps them when an older or the same version comes later', async () => {
    const first = aChange({ version: 3 });
    await fields.keep(first);
    const newer = { ...first, version: 5, analysis_fields: [{ ...CALLBACK }], changed_at: '2026-12-01T11:00:00.000Z' };
    await fields.keep(newer);
    expect(await fields.fieldsOf(first.number_id)).toEqual([CALLBACK]);

    await fields.keep({ ...first, version: 4 }); // delivered out of order
    await fields.keep({ ...newer, analysis_fields: [] }); // the same version again: not a change
    expect(await fields.fieldsOf(first.number_id)).toEqual([CALLBACK]);
    expect(
      await database.client.numberAnalysisFields.findUniqueOrThrow({ where: { number_id: first.number_id } }),
    ).toMatchObject({ version: 5, changed_at: new Date(newer.changed_at) });

    await fields.keep({ ...first, version: 6, analysis_fields: [] }); // all fields removed
    expect(await fields.fieldsOf(first.number_id)).toEqual([]);
  });

  it('leaves the newest of changes kept at the same time', async () => {
    const base = aChange();
    await Promise.all(
      [4, 1, 7, 3, 6, 2, 5].map((version) =>
        fields.keep({ ...base, version, analysis_fields: [{ ...ORDER_TOTAL, description: `version ${version}` }] }),
      ),
    );
    expect(await fields.fieldsOf(base.number_id)).toEqual([{ ...ORDER_TOTAL, description: 'version 7' }]);
  });

  it("keeps one number's fields apart from another's", async () => {
    const one = aChange({ analysis_fields: [{ ...ORDER_TOTAL }] });
    const two = aChange({ analysis_fields: [{ ...CALLBACK }] });
    await fields.keep(one);
    await fields.keep(two);
    expect(await fields.fieldsOf(one.number_id)).toEqual([ORDER_TOTAL]);
    expect(await fields.fieldsOf(two.number_id)).toEqual([CALLBACK]);
  });
});

/** The durable consumer: numbers-billing's events, from the NUMBERS stream into the repository. */
describe('AnalysisFieldsConsumer', () => {
  let world: CallsMediaWorld;
  let fields: AnalysisFieldsRepository;

  beforeAll(async () => {
    world = await CallsMediaWorld.create();
    fields = (await world.start()).get(AnalysisFieldsRepository);
  });

  afterAll(() => world?.close());

  const publish = async (data: NumberAnalysisFieldsChanged) => {
    await ensureStream(world.nc, world.messaging, STREAMS.numbers);
    const envelope: EventEnvelope<NumberAnalysisFieldsChanged> = {
      id: randomUUID(),
      type: NumberAnalysisFieldsChangedEvent.type,
      occurred_at: new Date().toISOString(),
      correlation_id: randomUUID(),
      causation_id: null,
      data,
    };
    await jetstream(world.nc).publish(
      eventSubject(world.messaging, NumberAnalysisFieldsChangedEvent.type),
      JSON.stringify(envelope),
      { msgID: envelope.id },
    );
  };

  it('keeps the newest fields numbers-billing publishes, whatever the order they arrive in', async () => {
    const change = aChange({ version: 3 });
    await publish(change);
    await eventually(async () => expect(await fields.fieldsOf(change.number_id)).toEqual([ORDER_TOTAL, ORDER_KIND]));
    await publish({ ...change, version: 2, analysis_fields: [] });
    await publish({ ...change, version: 4, analysis_fields: [{ ...CALLBACK }] });
    await eventually(async () => expect(await fields.fieldsOf(change.number_id)).toEqual([CALLBACK]));
  });
});
