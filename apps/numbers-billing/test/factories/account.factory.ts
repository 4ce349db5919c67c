import { AccountsRpc, type AccountView, type CreateAccountBody } from '@switchboard/contracts';
import type { NumbersBillingHarness } from '../support/numbers-billing-harness';

let sequence = 0;

/** An account made through the operator RPC, funded with $100 unless told otherwise. */
export function createAccount(
  harness: NumbersBillingHarness,
  overrides: Partial<CreateAccountBody> = {},
): Promise<AccountView> {
  sequence += 1;
  return harness.request(AccountsRpc.create, { name: `Test Co ${sequence}`, balance_cents: 10_000, ...overrides });
}
