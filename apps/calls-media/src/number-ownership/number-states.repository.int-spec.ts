import {
  CALLS_MEDIA_DATABASES,
  openCallsMediaDatabase,
  type OpenCallsMediaDatabase,
} from '../../test/calls-media-databases';
import { DataSettingsRepository } from '../call-data/data-settings.repository';
import { aNumberState, aUsPhoneNumber } from '../../test/factories/number-state.factory';
import { NumberStatesRepository } from './number-states.repository';

jest.setTimeout(60_000);

/** The read every call report starts with: a phone number's states and their accounts' storage modes at once. */
describe.each(CALLS_MEDIA_DATABASES)('NumberStatesRepository.ownersOf on %s', (_label, kind) => {
  let database: OpenCallsMediaDatabase;
  let numbers: NumberStatesRepository;
  let settings: DataSettingsRepository;

  beforeAll(async () => {
    database = await openCallsMediaDatabase(kind);
    numbers = new NumberStatesRepository(database.client);
    settings = new DataSettingsRepository(database.client);
  });

  afterAll(() => database?.close());

  it('answers no states for a phone number it has heard nothing of', async () => {
    const owners = await numbers.ownersOf(aUsPhoneNumber());
    expect(owners.states).toEqual([]);
    expect(owners.storageModes.size).toBe(0);
  });

  it('gives each account its storage mode, and everything to an account without settings', async () => {
    const phone = aUsPhoneNumber();
    const released = aNumberState({ phone_number: phone, status: 'released', answering: false });
    const current = aNumberState({ phone_number: phone, changed_at: new Date('2026-11-20T10:00:00Z') });
    await numbers.add(released);
    await numbers.add(current);
    await settings.update(current.account_id, { storage_mode: 'metadata_only' });

    const owners = await numbers.ownersOf(phone);

    expect(owners.states).toHaveLength(2);
    expect(owners.states).toEqual(expect.arrayContaining([released, current]));
    expect(Object.fromEntries(owners.storageModes)).toEqual({
      [released.account_id]: 'everything',
      [current.account_id]: 'metadata_only',
    });
  });
});
