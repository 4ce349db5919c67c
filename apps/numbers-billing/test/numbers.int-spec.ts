import { randomUUID } from 'node:crypto';
import {
  AccountsRpc,
  NumbersRpc,
  ProviderRpc,
  ServiceError,
  ServiceNumberRpc,
  WebhookTargetRpc,
  areaCodeOf,
  isUsE164,
  type NumberCreated,
  webhookSecretSealContext,
} from '@switchboard/contracts';
import { SealedSecretError, SealingKeyPair } from '@switchboard/messaging';
import { SecretBox } from '../src/crypto/secret-box';
import { LedgerRepository } from '../src/ledger/ledger.repository';
import { secretContext } from '../src/numbers/number-record';
import { NumbersService } from '../src/numbers/numbers.service';
import { createAccount } from './factories/account.factory';
import { numberCreate } from './factories/number.factory';
import {
  balanceAndLedgerSum,
  eventually,
  startNumbersBilling,
  type NumbersBillingHarness,
} from './support/numbers-billing-harness';
import { DISPATCHER_KEY, askWebhookTarget } from './support/webhook-target';

jest.setTimeout(60_000);

let h: NumbersBillingHarness;
beforeAll(async () => {
  h = await startNumbersBilling();
});
afterAll(() => h?.stop());

async function errorOf(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

async function balanceCents(accountId: string): Promise<number> {
  return (await h.request(AccountsRpc.get, { account_id: accountId })).balance_cents;
}

/** Moves the account's numbers out of the rolling hour, so the velocity limit does not get in the way. */
async function ageNumbers(accountId: string, hours = 2): Promise<void> {
  await h.prisma
    .$executeRaw`UPDATE numbers SET created_at = created_at - make_interval(hours => ${hours}) WHERE account_id = ${accountId}`;
}

async function expectLedgerBalanced(accountId: string): Promise<void> {
  const { balance, ledgerSum } = await balanceAndLedgerSum(h.prisma, accountId);
  expect(balance).toBe(ledgerSum);
}

describe('POST /numbers (numbers.v1.provision)', () => {
  it('buys a local number in the area of business_phone, charges the first month and returns the secret once', async () => {
    const account = await createAccount(h, { balance_cents: 1_000 });
    const created = await h.request(NumbersRpc.provision, numberCreate({ business_phone: '+13105550142' }), account.id);

    expect(created).toEqual({
      id: expect.stringMatching(/^num_[1-9]\d*$/),
      phone_number: expect.any(String),
      business_phone: '+13105550142',
      status: 'active',
      webhook_url: null,
      webhook_events: ['call.completed'],
      max_call_minutes: 60,
      created_at: expect.any(String),
      webhook_secret: expect.any(String),
    });
    expect(isUsE164(created.phone_number)).toBe(true);
    expect(areaCodeOf(created.phone_number)).toBe('310');
    expect(Buffer.from(created.webhook_secret.replace(/^whsec_/, ''), 'base64url').length).toBeGreaterThanOrEqual(32);
    expect(await balanceCents(account.id)).toBe(500);
    const ledger = await h.prisma.ledgerEntry.findMany({ where: { account_id: account.id, kind: 'number_month' } });
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ amount_millicents: -500_000n, reference: `number_month:${created.id}:0` });
    await expectLedgerBalanced(account.id);
  });

  it('buys in the requested area_code when one is given', async () => {
    const account = await createAccount(h);
    const created = await h.request(
      NumbersRpc.provision,
      numberCreate({ business_phone: '+14155550123', area_code: '212' }),
      account.id,
    );
    expect(areaCodeOf(created.phone_number)).toBe('212');
  });

  it('never sells one phone number to two active numbers', async () => {
    const accounts = await Promise.all([1, 2, 3].map(() => createAccount(h)));
    const created = await Promise.all(
      accounts.map((a) => h.request(NumbersRpc.provision, numberCreate({ area_code: '646' }), a.id)),
    );
    expect(new Set(created.map((n) => n.phone_number)).size).toBe(3);
  });

  it('publishes number.provisioned through the outbox, without the secret', async () => {
    const account = await createAccount(h);
    const created = await h.request(
      NumbersRpc.provision,
      numberCreate({ webhook_url: 'https://93.184.215.14/hooks' }),
      account.id,
    );
    const events = await eventually(h.numberEvents, (all) => all.some((e) => e.data.number_id === created.id));
    const event = events.find((e) => e.data.number_id === created.id)!;
    expect(event.type).toBe('number.provisioned');
    expect(event.data).toEqual({
      number_id: created.id,
      account_id: account.id,
      phone_number: created.phone_number,
      business_phone: created.business_phone,
      status: 'active',
      webhook_url: 'https://93.184.215.14/hooks',
      answering: true,
      max_call_minutes: 60,
      version: '1',
      changed_at: expect.any(String),
    });
    expect(JSON.stringify(event)).not.toContain(created.webhook_secret);
  });

  it('takes max_call_minutes at creation, publishes it, and binds it to the Idempotency-Key', async () => {
    const account = await createAccount(h);
    const body = numberCreate({ max_call_minutes: 15, idempotency_key: randomUUID() });
    const created = await h.request(NumbersRpc.provision, body, account.id);
    expect(created.max_call_minutes).toBe(15);
    const isProvisioned = (e: { type: string; data: { number_id: string } }) =>
      e.data.number_id === created.id && e.type === 'number.provisioned';
    const events = await eventually(h.numberEvents, (all) => all.some(isProvisioned));
    expect(events.find(isProvisioned)!.data.max_call_minutes).toBe(15);
    const reused = await errorOf(h.request(NumbersRpc.provision, { ...body, max_call_minutes: 16 }, account.id));
    expect(reused.code).toBe('idempotency_key_reused');

    for (const bad of [0, 241, null]) {
      const error = await errorOf(
        h.request(NumbersRpc.provision, numberCreate({ max_call_minutes: bad as number }), account.id),
      );
      expect(error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('max_call_minutes') });
    }
    expect(await h.prisma.phoneNumber.count({ where: { account_id: account.id } })).toBe(1);
  });

  it('refuses a balance below $5 with 402 insufficient_balance and charges nothing', async () => {
    const account = await createAccount(h, { balance_cents: 499 });
    const error = await errorOf(h.request(NumbersRpc.provision, numberCreate(), account.id));
    expect(error.code).toBe('insufficient_balance');
    expect(await balanceCents(account.id)).toBe(499);
    expect(await h.prisma.phoneNumber.count({ where: { account_id: account.id } })).toBe(0);
  });

  it('refuses a sixth active number with 429 number_limit, and the operator can raise the limit', async () => {
    const account = await createAccount(h, { balance_cents: 10_000 });
    for (let i = 0; i < 5; i++) {
      await h.request(NumbersRpc.provision, numberCreate(), account.id);
      await ageNumbers(account.id);
    }
    const error = await errorOf(h.request(NumbersRpc.provision, numberCreate(), account.id));
    expect(error.code).toBe('number_limit');
    expect(error.status).toBe(429);
    expect(await balanceCents(account.id)).toBe(10_000 - 5 * 500);

    await h.request(AccountsRpc.update, { account_id: account.id, number_limit: 6 });
    await expect(h.request(NumbersRpc.provision, numberCreate(), account.id)).resolves.toMatchObject({
      status: 'active',
    });
  });

  it('counts released numbers out of the limit', async () => {
    const account = await createAccount(h);
    await h.request(AccountsRpc.update, { account_id: account.id, number_limit: 1 });
    const first = await h.request(NumbersRpc.provision, numberCreate(), account.id);
    expect((await errorOf(h.request(NumbersRpc.provision, numberCreate(), account.id))).code).toBe('number_limit');
    await h.request(NumbersRpc.release, { id: first.id }, account.id);
    await expect(h.request(NumbersRpc.provision, numberCreate(), account.id)).resolves.toMatchObject({
      status: 'active',
    });
  });

  it('refuses a fourth provision within the rolling hour with 429 provision_velocity', async () => {
    const account = await createAccount(h);
    for (let i = 0; i < 3; i++) await h.request(NumbersRpc.provision, numberCreate(), account.id);
    const error = await errorOf(h.request(NumbersRpc.provision, numberCreate(), account.id));
    expect(error.code).toBe('provision_velocity');
    expect(error.status).toBe(429);
    expect(await balanceCents(account.id)).toBe(10_000 - 3 * 500);

    // The window rolls: once the first three are more than an hour old, provisioning works again.
    await h.prisma
      .$executeRaw`UPDATE numbers SET created_at = created_at - interval '61 minutes' WHERE account_id = ${account.id}`;
    await expect(h.request(NumbersRpc.provision, numberCreate(), account.id)).resolves.toMatchObject({
      status: 'active',
    });
  });

  it('refuses an area code without stock with 409 no_numbers and charges nothing', async () => {
    const account = await createAccount(h);
    await h.request(ProviderRpc.setStock, { area_code: '917', available: 1 });
    await h.request(NumbersRpc.provision, numberCreate({ area_code: '917' }), account.id);
    const error = await errorOf(h.request(NumbersRpc.provision, numberCreate({ area_code: '917' }), account.id));
    expect(error.code).toBe('no_numbers');
    expect(error.status).toBe(409);
    expect(await balanceCents(account.id)).toBe(10_000 - 500);
    await expectLedgerBalanced(account.id);
  });

  it('refuses an area code that has no local numbers (toll-free) with 409 no_numbers', async () => {
    const account = await createAccount(h);
    const error = await errorOf(h.request(NumbersRpc.provision, numberCreate({ area_code: '800' }), account.id));
    expect(error.code).toBe('no_numbers');
  });

  it('answers a transient provider failure with 503 provider_unavailable, charges nothing, and a retry succeeds', async () => {
    const account = await createAccount(h);
    await h.request(ProviderRpc.setFaults, { provision_failures: 1 });
    const error = await errorOf(h.request(NumbersRpc.provision, numberCreate(), account.id));
    expect(error.code).toBe('provider_unavailable');
    expect(error.status).toBe(503);
    expect(await balanceCents(account.id)).toBe(10_000);
    expect(await h.prisma.phoneNumber.count({ where: { account_id: account.id } })).toBe(0);

    await expect(h.request(NumbersRpc.provision, numberCreate(), account.id)).resolves.toMatchObject({
      status: 'active',
    });
    expect(await balanceCents(account.id)).toBe(9_500);
  });

  it('refuses a malformed business_phone and area_code with 400 invalid_request naming the field', async () => {
    const account = await createAccount(h);
    const phone = await errorOf(h.request(NumbersRpc.provision, { business_phone: '415-555-0123' }, account.id));
    expect(phone.code).toBe('invalid_request');
    expect(phone.message).toContain('business_phone');
    const invalidNumber = await errorOf(
      h.request(NumbersRpc.provision, { business_phone: '+19995550100' }, account.id),
    );
    expect(invalidNumber.message).toContain('business_phone');
    const area = await errorOf(
      h.request(NumbersRpc.provision, { business_phone: '+14155550123', area_code: '41' }, account.id),
    );
    expect(area.message).toContain('area_code');
  });

  describe('webhook_url', () => {
    const refused = [
      ['plain http', 'http://93.184.215.14/hook'],
      ['loopback', 'https://127.0.0.1/hook'],
      ['private 10/8', 'https://10.1.2.3/hook'],
      ['private 192.168/16', 'https://192.168.1.10/hook'],
      ['link-local (cloud metadata)', 'https://169.254.169.254/latest'],
      ['CGNAT', 'https://100.64.0.1/hook'],
      ['multicast', 'https://224.0.0.1/hook'],
      ['unspecified', 'https://0.0.0.0/hook'],
      ['IPv6 loopback', 'https://[::1]/hook'],
      ['IPv6 unique-local', 'https://[fd00::1]/hook'],
      ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hook'],
      ['a name that resolves to loopback', 'https://localhost/hook'],
      ['not a URL', 'hooks.example.com/x'],
    ];
    it.each(refused)('refuses %s with 400 invalid_request naming webhook_url', async (_, url) => {
      const account = await createAccount(h);
      const error = await errorOf(h.request(NumbersRpc.provision, numberCreate({ webhook_url: url }), account.id));
      expect(error.code).toBe('invalid_request');
      expect(error.message).toContain('webhook_url');
      expect(await balanceCents(account.id)).toBe(10_000);
    });

    it('accepts a public https address', async () => {
      const account = await createAccount(h);
      const created = await h.request(
        NumbersRpc.provision,
        numberCreate({ webhook_url: 'https://93.184.215.14:8443/hooks?x=1' }),
        account.id,
      );
      expect(created.webhook_url).toBe('https://93.184.215.14:8443/hooks?x=1');
    });

    it('normalises URLs stored before normalisation once, as number.updated, and leaves released numbers alone', async () => {
      const account = await createAccount(h);
      const [old, released, unparsable] = await Promise.all(
        [0, 1, 2].map(() =>
          h.request(NumbersRpc.provision, numberCreate({ webhook_url: 'https://93.184.215.14/hooks' }), account.id),
        ),
      );
      await h.request(NumbersRpc.release, { id: released.id }, account.id);
      // Test set-up only: rows as an older version stored them, as sent.
      const store = (id: string, url: string) =>
        h.prisma.phoneNumber.update({ where: { id: BigInt(id.slice(4)) }, data: { webhook_url: url } });
      await store(old.id, 'HTTPS://93.184.215.14:443/a/../hooks');
      await store(released.id, 'HTTPS://93.184.215.14:443/released');
      await store(unparsable.id, 'https://exa mple.com/');
      const version = async (id: string) =>
        (await h.prisma.phoneNumber.findUniqueOrThrow({ where: { id: BigInt(id.slice(4)) } })).version;
      const before = { old: await version(old.id), unparsable: await version(unparsable.id) };

      expect(await h.app.get(NumbersService).normalizeStoredWebhookUrls()).toBe(1);
      expect((await h.request(NumbersRpc.get, { id: old.id }, account.id)).webhook_url).toBe(
        'https://93.184.215.14/hooks',
      );
      expect(await version(old.id)).toBe(before.old + 1n);
      expect((await h.request(NumbersRpc.get, { id: released.id }, account.id)).webhook_url).toBe(
        'HTTPS://93.184.215.14:443/released',
      );
      expect((await h.request(NumbersRpc.get, { id: unparsable.id }, account.id)).webhook_url).toBe(
        'https://exa mple.com/',
      );
      expect(await version(unparsable.id)).toBe(before.unparsable);
      const published = await eventually(
        () => h.numberEvents(),
        (events) => events.some((e) => e.type === 'number.updated' && e.data.number_id === old.id),
      );
      expect(published.filter((e) => e.data.number_id === old.id).at(-1)!.data.webhook_url).toBe(
        'https://93.184.215.14/hooks',
      );
      expect(await h.app.get(NumbersService).normalizeStoredWebhookUrls()).toBe(0);
    });
  });

  describe('webhook_secret', () => {
    it('is stored encrypted and handed to the dispatcher sealed for its key', async () => {
      const account = await createAccount(h);
      const created = await h.request(
        NumbersRpc.provision,
        numberCreate({ webhook_url: 'https://93.184.215.14/hooks' }),
        account.id,
      );
      const row = await h.prisma.phoneNumber.findUniqueOrThrow({ where: { id: BigInt(created.id.slice(4)) } });
      expect(row.webhook_secret_ciphertext).not.toContain(created.webhook_secret);
      expect(row.webhook_secret_ciphertext).not.toContain(created.webhook_secret.slice(6, 20));
      expect(row.webhook_secret_key_id).toMatch(/^k_[0-9a-f]{16}$/);

      const target = await askWebhookTarget(h.request, created.id);
      expect(target).toEqual({
        number_id: created.id,
        webhook_url: 'https://93.184.215.14/hooks',
        webhook_secret: created.webhook_secret,
        sealed: expect.any(String),
        webhook_events: ['call.completed'],
      });
    });

    it("never crosses the bus in plaintext: sealed for the asker's key alone, bound to its number", async () => {
      const account = await createAccount(h);
      const created = await h.request(
        NumbersRpc.provision,
        numberCreate({ webhook_url: 'https://93.184.215.14/hooks' }),
        account.id,
      );
      const reply = await h.request(WebhookTargetRpc, {
        number_id: created.id,
        recipient_key: DISPATCHER_KEY.publicKey,
      });
      expect(Object.keys(reply).sort()).toEqual([
        'number_id',
        'webhook_events',
        'webhook_secret_sealed',
        'webhook_url',
      ]);
      expect(JSON.stringify(reply)).not.toContain(created.webhook_secret.slice(6, 20));
      expect(() =>
        SealingKeyPair.generate().open(reply.webhook_secret_sealed, webhookSecretSealContext(created.id)),
      ).toThrow(SealedSecretError);
      expect(() => DISPATCHER_KEY.open(reply.webhook_secret_sealed, webhookSecretSealContext('num_1'))).toThrow(
        SealedSecretError,
      );
      // Another asker's key gets its own sealed value, which only it opens.
      const other = SealingKeyPair.generate();
      const forOther = await h.request(WebhookTargetRpc, { number_id: created.id, recipient_key: other.publicKey });
      expect(other.open(forOther.webhook_secret_sealed, webhookSecretSealContext(created.id))).toBe(
        created.webhook_secret,
      );
    });

    it('answers invalid_request for a recipient key no one can hold the private half of', async () => {
      const account = await createAccount(h);
      const created = await h.request(NumbersRpc.provision, numberCreate(), account.id);
      const lowOrderPoint = Buffer.alloc(32).toString('base64url');
      expect(
        (await errorOf(h.request(WebhookTargetRpc, { number_id: created.id, recipient_key: lowOrderPoint }))).code,
      ).toBe('invalid_request');
    });

    it('differs for every number', async () => {
      const account = await createAccount(h);
      const a = await h.request(NumbersRpc.provision, numberCreate(), account.id);
      const b = await h.request(NumbersRpc.provision, numberCreate(), account.id);
      expect(a.webhook_secret).not.toBe(b.webhook_secret);
    });

    it('is handed out as stored now: a secret sealed anew is answered, not the one opened before', async () => {
      const account = await createAccount(h);
      const created = await h.request(
        NumbersRpc.provision,
        numberCreate({ webhook_url: 'https://93.184.215.14/hooks' }),
        account.id,
      );
      const first = await askWebhookTarget(h.request, created.id);
      expect(first.webhook_secret).toBe(created.webhook_secret);
      // Sealed once per stored secret: asked again, the same sealed value (so the dispatcher's memo hits too).
      expect((await askWebhookTarget(h.request, created.id)).sealed).toBe(first.sealed);

      const id = BigInt(created.id.slice(4));
      const replaced = h.app.get(SecretBox).seal('whsec_replaced', secretContext(id));
      await h.prisma.phoneNumber.update({
        where: { id },
        data: { webhook_secret_key_id: replaced.keyId, webhook_secret_ciphertext: replaced.ciphertext },
      });
      const replacedTarget = await askWebhookTarget(h.request, created.id);
      expect(replacedTarget.webhook_secret).toBe('whsec_replaced');
      expect(replacedTarget.sealed).not.toBe(first.sealed);

      // Another number's ciphertext copied onto this row does not open (it is bound to its number), cached or not.
      const other = await h.request(NumbersRpc.provision, numberCreate(), account.id);
      await askWebhookTarget(h.request, other.id);
      const otherRow = await h.prisma.phoneNumber.findUniqueOrThrow({ where: { id: BigInt(other.id.slice(4)) } });
      await h.prisma.phoneNumber.update({
        where: { id },
        data: {
          webhook_secret_key_id: otherRow.webhook_secret_key_id,
          webhook_secret_ciphertext: otherRow.webhook_secret_ciphertext,
        },
      });
      expect((await errorOf(askWebhookTarget(h.request, created.id))).code).toBe('internal_error');
    });

    it('answers 404 not_found for an unknown number', async () => {
      expect((await errorOf(askWebhookTarget(h.request, 'num_999999999'))).code).toBe('not_found');
    });
  });
});

describe('concurrent provisioning', () => {
  it('never spends the same dollars twice: 6 requests at once on a balance for 2', async () => {
    const account = await createAccount(h, { balance_cents: 1_200 });
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => h.request(NumbersRpc.provision, numberCreate(), account.id)),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results
      .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
      .map((r) => (r.reason as ServiceError).code);
    expect(ok).toHaveLength(2);
    expect(refused).toEqual(Array(4).fill('insufficient_balance'));
    expect(await balanceCents(account.id)).toBe(200);
    await expectLedgerBalanced(account.id);
  });

  it('never passes the number limit: 6 requests at once with room for 2', async () => {
    const account = await createAccount(h);
    await h.request(AccountsRpc.update, { account_id: account.id, number_limit: 2 });
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => h.request(NumbersRpc.provision, numberCreate(), account.id)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    expect(await h.prisma.phoneNumber.count({ where: { account_id: account.id } })).toBe(2);
    expect(await balanceCents(account.id)).toBe(10_000 - 2 * 500);
  });

  it('never passes the velocity limit: 8 requests at once', async () => {
    const account = await createAccount(h);
    await h.request(AccountsRpc.update, { account_id: account.id, number_limit: 20 });
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => h.request(NumbersRpc.provision, numberCreate(), account.id)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const codes = results
      .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
      .map((r) => (r.reason as ServiceError).code);
    expect(new Set(codes)).toEqual(new Set(['provision_velocity']));
  });
});

describe('bursts against one account', () => {
  // Each request refused here must be refused before it waits for the account row lock (the pre-check in
  // ProvisioningService.begin); counting the locks taken is how these tests see it, not timing.
  async function burst(accountId: string, size: number): Promise<{ codes: string[]; locks: number }> {
    const locks = jest.spyOn(h.app.get(LedgerRepository), 'lockAccount');
    try {
      const results = await Promise.allSettled(
        Array.from({ length: size }, () => h.request(NumbersRpc.provision, numberCreate(), accountId)),
      );
      const codes = results.map((r) => (r.status === 'rejected' ? (r.reason as ServiceError).code : 'created'));
      return { codes, locks: locks.mock.calls.filter(([, id]) => id === accountId).length };
    } finally {
      locks.mockRestore();
    }
  }

  it('refuses a burst past the velocity limit without taking the account lock', async () => {
    const account = await createAccount(h);
    await h.request(AccountsRpc.update, { account_id: account.id, number_limit: 20 });
    for (let i = 0; i < 3; i++) await h.request(NumbersRpc.provision, numberCreate(), account.id);
    expect(await burst(account.id, 20)).toEqual({ codes: Array(20).fill('provision_velocity'), locks: 0 });
    expect(await h.prisma.phoneNumber.count({ where: { account_id: account.id } })).toBe(3);
  });

  it('counts orders still at the provider, and lets the locked check decide once they fail', async () => {
    const account = await createAccount(h, { balance_cents: 1_000 });
    const pending = await Promise.all(
      [0, 1].map(async () => {
        const id = randomUUID();
        const now = new Date();
        await h.prisma.numberOrder.create({
          data: {
            id,
            account_id: account.id,
            fingerprint: 'in flight',
            status: 'pending',
            business_phone: '+14155550123',
            area_code: '415',
            hold_millicents: 500_000n,
            created_at: now,
            updated_at: now,
          },
        });
        return id;
      }),
    );
    // $10 on the balance, $10 held by two purchases in flight: nothing left to hold for another.
    expect(await burst(account.id, 10)).toEqual({ codes: Array(10).fill('insufficient_balance'), locks: 0 });

    await h.prisma.numberOrder.updateMany({
      where: { id: { in: pending } },
      data: { status: 'failed', failure_code: 'no_numbers' },
    });
    const after = await burst(account.id, 3);
    expect(after.codes.filter((c) => c === 'created')).toHaveLength(2);
    expect(after.locks).toBeGreaterThan(0);
    expect(await balanceCents(account.id)).toBe(0);
    await expectLedgerBalanced(account.id);
  });

  it('refuses a burst past the number limit and on a balance below $5 without taking the lock', async () => {
    const full = await createAccount(h);
    await h.request(AccountsRpc.update, { account_id: full.id, number_limit: 1 });
    await h.request(NumbersRpc.provision, numberCreate(), full.id);
    expect(await burst(full.id, 10)).toEqual({ codes: Array(10).fill('number_limit'), locks: 0 });

    const poor = await createAccount(h, { balance_cents: 499 });
    expect(await burst(poor.id, 10)).toEqual({ codes: Array(10).fill('insufficient_balance'), locks: 0 });
  });
});

describe('Idempotency-Key', () => {
  it('answers a retry with its first answer even once the velocity limit is reached', async () => {
    const account = await createAccount(h);
    const created: NumberCreated[] = [];
    for (let i = 0; i < 3; i++)
      created.push(
        await h.request(NumbersRpc.provision, numberCreate({ idempotency_key: `velocity-${i}` }), account.id),
      );
    expect(await h.request(NumbersRpc.provision, numberCreate({ idempotency_key: 'velocity-2' }), account.id)).toEqual(
      created[2],
    );
    expect(
      (await errorOf(h.request(NumbersRpc.provision, numberCreate({ idempotency_key: 'velocity-3' }), account.id)))
        .code,
    ).toBe('provision_velocity');
  });

  it('answers a retry with the first answer without buying or charging again', async () => {
    const account = await createAccount(h);
    const body = numberCreate({ idempotency_key: 'order-1' });
    const first = await h.request(NumbersRpc.provision, body, account.id);
    const second = await h.request(NumbersRpc.provision, body, account.id);
    expect(second).toEqual(first);
    expect(await h.prisma.phoneNumber.count({ where: { account_id: account.id } })).toBe(1);
    expect(await balanceCents(account.id)).toBe(9_500);
  });

  it('refuses the same key with another body with 422 idempotency_key_reused', async () => {
    const account = await createAccount(h);
    await h.request(NumbersRpc.provision, numberCreate({ idempotency_key: 'k-2' }), account.id);
    const error = await errorOf(
      h.request(NumbersRpc.provision, numberCreate({ idempotency_key: 'k-2', area_code: '212' }), account.id),
    );
    expect(error.code).toBe('idempotency_key_reused');
  });

  it('keeps keys per account', async () => {
    const [a, b] = await Promise.all([createAccount(h), createAccount(h)]);
    const first = await h.request(NumbersRpc.provision, numberCreate({ idempotency_key: 'shared' }), a.id);
    const second = await h.request(NumbersRpc.provision, numberCreate({ idempotency_key: 'shared' }), b.id);
    expect(second.id).not.toBe(first.id);
  });

  it('buys once when the same request arrives several times at once', async () => {
    const account = await createAccount(h);
    const body = numberCreate({ idempotency_key: 'burst' });
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => h.request(NumbersRpc.provision, body, account.id)),
    );
    const answers = results
      .filter((r): r is PromiseFulfilledResult<NumberCreated> => r.status === 'fulfilled')
      .map((r) => r.value);
    const refused = results
      .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
      .map((r) => (r.reason as ServiceError).code);
    expect(answers.length).toBeGreaterThanOrEqual(1);
    expect(new Set(answers.map((a) => a.id)).size).toBe(1);
    expect(new Set(refused)).toEqual(new Set(refused.length ? ['idempotency_key_in_use'] : []));
    expect(await h.prisma.phoneNumber.count({ where: { account_id: account.id } })).toBe(1);
    expect(await balanceCents(account.id)).toBe(9_500);
  });

  it('makes a retry after 503 safe: the retry buys once and is charged once', async () => {
    const account = await createAccount(h);
    const body = numberCreate({ idempotency_key: 'after-503' });
    await h.request(ProviderRpc.setFaults, { provision_failures: 1 });
    expect((await errorOf(h.request(NumbersRpc.provision, body, account.id))).code).toBe('provider_unavailable');
    const created = await h.request(NumbersRpc.provision, body, account.id);
    expect(await h.request(NumbersRpc.provision, body, account.id)).toEqual(created);
    expect(await balanceCents(account.id)).toBe(9_500);
    expect(await h.prisma.phoneNumber.count({ where: { account_id: account.id } })).toBe(1);
  });
});

describe('GET /numbers (numbers.v1.list)', () => {
  it('lists the account’s numbers active first, never with the secret, and not other accounts’ numbers', async () => {
    const [account, other] = await Promise.all([createAccount(h), createAccount(h)]);
    const a = await h.request(NumbersRpc.provision, numberCreate(), account.id);
    const b = await h.request(NumbersRpc.provision, numberCreate(), account.id);
    const c = await h.request(NumbersRpc.provision, numberCreate(), account.id);
    await h.request(NumbersRpc.provision, numberCreate(), other.id);
    await h.request(NumbersRpc.release, { id: b.id }, account.id);

    const list = await h.request(NumbersRpc.list, {}, account.id);
    expect(list.has_more).toBe(false);
    expect(list.data.map((n) => [n.id, n.status])).toEqual([
      [c.id, 'active'],
      [a.id, 'active'],
      [b.id, 'released'],
    ]);
    for (const item of list.data) expect(item).not.toHaveProperty('webhook_secret');
    expect(Object.keys(list.data[0]).sort()).toEqual([
      'business_phone',
      'created_at',
      'id',
      'max_call_minutes',
      'phone_number',
      'status',
      'webhook_events',
      'webhook_url',
    ]);
  });

  it('pages with limit, starting_after and has_more, keeping the order', async () => {
    const account = await createAccount(h);
    await h.request(AccountsRpc.update, { account_id: account.id, number_limit: 10 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await h.request(NumbersRpc.provision, numberCreate(), account.id)).id);
      await ageNumbers(account.id);
    }
    await h.request(NumbersRpc.release, { id: ids[4] }, account.id);
    const expected = [ids[3], ids[2], ids[1], ids[0], ids[4]];

    const seen: string[] = [];
    let page = await h.request(NumbersRpc.list, { limit: 2 }, account.id);
    seen.push(...page.data.map((n) => n.id));
    while (page.has_more) {
      page = await h.request(NumbersRpc.list, { limit: 2, starting_after: seen.at(-1) }, account.id);
      seen.push(...page.data.map((n) => n.id));
    }
    expect(seen).toEqual(expected);
  });

  it('refuses a cursor that is not one of the account’s numbers', async () => {
    const [account, other] = await Promise.all([createAccount(h), createAccount(h)]);
    const foreign = await h.request(NumbersRpc.provision, numberCreate(), other.id);
    expect((await errorOf(h.request(NumbersRpc.list, { starting_after: foreign.id }, account.id))).code).toBe(
      'invalid_request',
    );
    expect((await errorOf(h.request(NumbersRpc.list, { limit: 0 }, account.id))).code).toBe('invalid_request');
  });
});

describe('DELETE /numbers/{id} (numbers.v1.release)', () => {
  it('releases by num_<n>, refunds nothing, gives the number back to the provider and publishes number.released', async () => {
    const account = await createAccount(h);
    const created = await h.request(NumbersRpc.provision, numberCreate(), account.id);
    await expect(h.request(NumbersRpc.release, { id: created.id }, account.id)).resolves.toEqual({ released: true });

    expect(await balanceCents(account.id)).toBe(9_500);
    const sold = await h.prisma.simulatedProviderNumber.findUniqueOrThrow({
      where: { phone_number: created.phone_number },
    });
    expect(sold.status).toBe('released');
    const list = await h.request(NumbersRpc.list, {}, account.id);
    expect(list.data[0]).toMatchObject({ id: created.id, status: 'released' });
    const events = await eventually(h.numberEvents, (all) =>
      all.some((e) => e.data.number_id === created.id && e.type === 'number.released'),
    );
    const released = events.find((e) => e.data.number_id === created.id && e.type === 'number.released');
    expect(released?.data).toMatchObject({ status: 'released', answering: false, version: '2' });
  });

  it('sells an area code in order, and a released number again before the next one', async () => {
    const account = await createAccount(h);
    const provision = () => h.request(NumbersRpc.provision, numberCreate({ area_code: '505' }), account.id);
    const first = [await provision(), await provision(), await provision()];
    expect(first.map((n) => n.phone_number)).toEqual(['+15055550100', '+15055550101', '+15055550102']);
    await ageNumbers(account.id);
    await h.request(NumbersRpc.release, { id: first[1].id }, account.id);
    expect((await provision()).phone_number).toBe('+15055550101');
    expect((await provision()).phone_number).toBe('+15055550103');
  });

  it('accepts the bare integer <n> as well', async () => {
    const account = await createAccount(h);
    const created = await h.request(NumbersRpc.provision, numberCreate(), account.id);
    await expect(h.request(NumbersRpc.release, { id: created.id.slice(4) }, account.id)).resolves.toEqual({
      released: true,
    });
  });

  it('answers 404 not_found for an unknown id and for another account’s number, and leaves that number alone', async () => {
    const [account, other] = await Promise.all([createAccount(h), createAccount(h)]);
    const foreign = await h.request(NumbersRpc.provision, numberCreate(), other.id);
    expect((await errorOf(h.request(NumbersRpc.release, { id: 'num_987654321' }, account.id))).code).toBe('not_found');
    expect((await errorOf(h.request(NumbersRpc.release, { id: foreign.id }, account.id))).code).toBe('not_found');
    expect((await h.request(NumbersRpc.list, {}, other.id)).data[0].status).toBe('active');
  });

  it('refuses an id of another form with 400 invalid_request', async () => {
    const account = await createAccount(h);
    expect((await errorOf(h.request(NumbersRpc.release, { id: 'abc' }, account.id))).code).toBe('invalid_request');
    expect((await errorOf(h.request(NumbersRpc.release, { id: 'num_0' }, account.id))).code).toBe('invalid_request');
  });

  it('is final: releasing again answers released and changes nothing', async () => {
    const account = await createAccount(h);
    const created = await h.request(NumbersRpc.provision, numberCreate(), account.id);
    await h.request(NumbersRpc.release, { id: created.id }, account.id);
    await expect(h.request(NumbersRpc.release, { id: created.id }, account.id)).resolves.toEqual({ released: true });
    const row = await h.prisma.phoneNumber.findUniqueOrThrow({ where: { id: BigInt(created.id.slice(4)) } });
    expect(row.status).toBe('released');
    expect(row.version).toBe(2n);
  });
});

describe('PATCH /numbers/{id} (numbers.v1.update)', () => {
  it('sends the next webhook to the new URL and publishes number.updated with it', async () => {
    const account = await createAccount(h);
    const created = await h.request(
      NumbersRpc.provision,
      numberCreate({ webhook_url: 'https://93.184.215.14/old' }),
      account.id,
    );
    const updated = await h.request(
      NumbersRpc.update,
      { id: created.id, webhook_url: 'https://93.184.215.14/new' },
      account.id,
    );
    expect(updated.webhook_url).toBe('https://93.184.215.14/new');
    expect(await askWebhookTarget(h.request, created.id)).toMatchObject({
      number_id: created.id,
      webhook_url: 'https://93.184.215.14/new',
      webhook_secret: created.webhook_secret,
    });
    const events = await eventually(h.numberEvents, (all) =>
      all.some((e) => e.data.number_id === created.id && e.type === 'number.updated'),
    );
    const event = events.find((e) => e.data.number_id === created.id && e.type === 'number.updated')!;
    expect(event.data).toMatchObject({ webhook_url: 'https://93.184.215.14/new', status: 'active', version: '2' });
  });

  it('opts in to call.started and call.updated, and tells the dispatcher in the webhook target', async () => {
    const account = await createAccount(h);
    const created = await h.request(NumbersRpc.provision, numberCreate(), account.id);
    const updated = await h.request(
      NumbersRpc.update,
      { id: created.id, webhook_events: ['call.updated', 'call.started'] },
      account.id,
    );
    expect(updated.webhook_events).toEqual(['call.completed', 'call.started', 'call.updated']);
    expect((await askWebhookTarget(h.request, created.id)).webhook_events).toEqual([
      'call.completed',
      'call.started',
      'call.updated',
    ]);
  });

  it('takes max_call_minutes alone, shows it, and publishes it in number.updated', async () => {
    const account = await createAccount(h);
    const created = await h.request(NumbersRpc.provision, numberCreate(), account.id);
    const updated = await h.request(NumbersRpc.update, { id: created.id, max_call_minutes: 240 }, account.id);
    expect(updated).toMatchObject({ id: created.id, max_call_minutes: 240 });
    expect((await h.request(NumbersRpc.get, { id: created.id }, account.id)).max_call_minutes).toBe(240);
    const isUpdate = (e: { type: string; data: { number_id: string } }) =>
      e.data.number_id === created.id && e.type === 'number.updated';
    const events = await eventually(h.numberEvents, (all) => all.some(isUpdate));
    expect(events.find(isUpdate)!.data).toMatchObject({ max_call_minutes: 240, version: '2' });
  });

  it('refuses a max_call_minutes that is not an integer from 1 to 240 with 400, changing nothing', async () => {
    const account = await createAccount(h);
    const created = await h.request(NumbersRpc.provision, numberCreate(), account.id);
    for (const bad of [0, 241, 1.5, '60', null]) {
      const error = await errorOf(
        h.request(NumbersRpc.update, { id: created.id, max_call_minutes: bad as number }, account.id),
      );
      expect(error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('max_call_minutes') });
    }
    const row = await h.prisma.phoneNumber.findUniqueOrThrow({ where: { id: BigInt(created.id.slice(4)) } });
    expect(row).toMatchObject({ max_call_minutes: 60, version: 1n });
  });
});

describe('numbers.v1.service-number.get (the simulated provider asks)', () => {
  it('tells an unknown phone number, one in service, one released, and a call made before the release', async () => {
    const account = await createAccount(h);
    const created = await h.request(NumbersRpc.provision, numberCreate(), account.id);
    const now = () => new Date().toISOString();
    expect(await h.request(ServiceNumberRpc, { phone_number: '+14155550000', at: now() })).toEqual({
      phone_number: '+14155550000',
      in_service: false,
      reason: 'unknown',
      held_since: null,
    });
    expect(await h.request(ServiceNumberRpc, { phone_number: created.phone_number, at: now() })).toMatchObject({
      in_service: true,
      reason: null,
      held_since: created.created_at,
    });
    const beforeRelease = now();
    await h.request(NumbersRpc.release, { id: created.id }, account.id);
    expect(await h.request(ServiceNumberRpc, { phone_number: created.phone_number, at: now() })).toMatchObject({
      in_service: false,
      reason: 'released',
      held_since: null,
    });
    expect(await h.request(ServiceNumberRpc, { phone_number: created.phone_number, at: beforeRelease })).toMatchObject({
      in_service: true,
    });
  });
});

describe('operator controls of the simulated provider', () => {
  it('sets and answers the stock of an area code', async () => {
    await expect(h.request(ProviderRpc.setStock, { area_code: '503', available: 7 })).resolves.toEqual({
      area_code: '503',
      available: 7,
    });
    const account = await createAccount(h);
    await h.request(NumbersRpc.provision, numberCreate({ area_code: '503' }), account.id);
    expect((await h.prisma.simulatedProviderStock.findUniqueOrThrow({ where: { area_code: '503' } })).available).toBe(
      6,
    );
  });

  it('refuses a negative stock or an invalid area code', async () => {
    expect((await errorOf(h.request(ProviderRpc.setStock, { area_code: '503', available: -1 }))).code).toBe(
      'invalid_request',
    );
    expect((await errorOf(h.request(ProviderRpc.setStock, { area_code: '911', available: 1 }))).code).toBe(
      'invalid_request',
    );
  });

  it('fails exactly the next N purchases', async () => {
    const account = await createAccount(h);
    await h.request(AccountsRpc.update, { account_id: account.id, number_limit: 10 });
    await expect(h.request(ProviderRpc.setFaults, { provision_failures: 2 })).resolves.toEqual({
      provision_failures: 2,
    });
    const codes: string[] = [];
    for (let i = 0; i < 3; i++) {
      codes.push(
        await h.request(NumbersRpc.provision, numberCreate(), account.id).then(
          () => 'ok',
          (e: ServiceError) => e.code,
        ),
      );
    }
    expect(codes).toEqual(['provider_unavailable', 'provider_unavailable', 'ok']);
  });
});
