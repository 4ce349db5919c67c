import { ServiceError } from '@switchboard/contracts';
import { requireAccount } from './rpc-pattern.decorator';

describe('requireAccount', () => {
  it('answers the account the gateway set', () => {
    expect(requireAccount({ accountId: 'acc_1', requestId: 'req_1' })).toBe('acc_1');
  });

  it.each([undefined, ''])('refuses a request without one (%p) as unauthorized', (accountId) => {
    const refuse = () => requireAccount({ accountId, requestId: 'req_1' });
    expect(refuse).toThrow(ServiceError);
    expect(refuse).toThrow(expect.objectContaining({ code: 'unauthorized' }));
  });
});
