import { NumbersRpc } from '@switchboard/contracts';
import { NumbersService } from '../src/numbers/numbers.service';
import { createAccount } from './factories/account.factory';
import { numberCreate } from './factories/number.factory';
import {
  eventually,
  startNumbersBilling,
  testEncryptionKey,
  type NumbersBillingHarness,
} from './support/numbers-billing-harness';
import { askWebhookTarget } from './support/webhook-target';

jest.setTimeout(60_000);

describe('rotating SECRETS_ENCRYPTION_KEY', () => {
  let before: NumbersBillingHarness | undefined;
  let after: NumbersBillingHarness | undefined;
  afterAll(async () => {
    await after?.stop();
    await before?.stop();
  });

  it('keeps every webhook secret readable and seals them again with the new key at start', async () => {
    const oldKey = testEncryptionKey();
    before = await startNumbersBilling({ env: { SECRETS_ENCRYPTION_KEY: oldKey } });
    const account = await createAccount(before);
    const created = await before.request(
      NumbersRpc.provision,
      numberCreate({ webhook_url: 'https://93.184.215.14/h' }),
      account.id,
    );
    const oldKeyId = (await before.prisma.phoneNumber.findFirstOrThrow()).webhook_secret_key_id;
    await before.app.close();

    const newKey = testEncryptionKey();
    after = await startNumbersBilling({
      database: before.db,
      env: { SECRETS_ENCRYPTION_KEY: newKey, SECRETS_ENCRYPTION_PREVIOUS_KEYS: oldKey },
    });
    const row = await eventually(
      () => after!.prisma.phoneNumber.findFirstOrThrow(),
      (r) => r.webhook_secret_key_id !== oldKeyId,
    );
    expect(row.webhook_secret_key_id).not.toBe(oldKeyId);
    expect(await askWebhookTarget(after.request, created.id)).toMatchObject({ webhook_secret: created.webhook_secret });
    expect(await after.app.get(NumbersService).resealStaleSecrets()).toBe(0);
  });
});
