import type { FastifyRequest } from 'fastify';
import { callerOf } from './caller.decorator';

describe('@Caller()', () => {
  const request = (extra: Partial<FastifyRequest>) => ({ id: 'req_1', ...extra }) as FastifyRequest;

  it("carries an API key's account", () => {
    expect(callerOf(request({ auth: { keyId: 'key_1', accountId: 'acct_a' } }))).toEqual({
      accountId: 'acct_a',
      requestId: 'req_1',
    });
  });

  it("carries a console session's account the same way", () => {
    expect(callerOf(request({ sessionAccountId: 'acct_b' }))).toEqual({ accountId: 'acct_b', requestId: 'req_1' });
  });

  it('carries the request id alone for an operator', () => {
    expect(callerOf(request({}))).toEqual({ requestId: 'req_1' });
  });
});
