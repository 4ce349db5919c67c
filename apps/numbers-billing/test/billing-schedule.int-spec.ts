import { NumbersRpc } from '@switchboard/contracts';
import { createAccount } from './factories/account.factory';
import { numberCreate } from './factories/number.factory';
import { eventually, startNumbersBilling, type NumbersBillingHarness } from './support/numbers-billing-harness';

jest.setTimeout(60_000);

describe('the billing schedule (BILLING_CYCLE_INTERVAL_MS)', () => {
  let h: NumbersBillingHarness;
  beforeAll(async () => {
    h = await startNumbersBilling({ env: { BILLING_CYCLE_INTERVAL_MS: '200' } });
  });
  afterAll(() => h?.stop());

  it('runs the cycle by itself: a number whose period has started is charged without the operator', async () => {
    const account = await createAccount(h, { balance_cents: 2_000 });
    const number = await h.request(NumbersRpc.provision, numberCreate(), account.id);
    const id = BigInt(number.id.slice(4));
    // The number's second period starts now (as if it had been provisioned a month ago).
    await h.prisma.phoneNumber.update({ where: { id }, data: { next_charge_at: new Date(Date.now() - 1000) } });
    const charges = await eventually(
      () => h.prisma.ledgerEntry.count({ where: { reference: { startsWith: `number_month:${number.id}:` } } }),
      (count) => count === 2,
    );
    expect(charges).toBe(2);
  });
});
