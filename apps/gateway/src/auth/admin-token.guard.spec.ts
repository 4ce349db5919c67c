import type { ExecutionContext } from '@nestjs/common';
import { ServiceError } from '@switchboard/contracts';
import { loadGatewayConfig } from '../config/gateway.config';
import { AdminTokenGuard } from './admin-token.guard';

const withAuthorization = (authorization?: string) =>
  ({ switchToHttp: () => ({ getRequest: () => ({ headers: { authorization } }) }) }) as unknown as ExecutionContext;

describe('AdminTokenGuard', () => {
  const current = 'the-current-admin-token';
  const previous = 'the-previous-admin-token';

  it('lets the current token through and refuses anything else with 401 unauthorized', () => {
    const guard = new AdminTokenGuard(loadGatewayConfig({ ADMIN_TOKEN: current }));
    expect(guard.canActivate(withAuthorization(`Bearer ${current}`))).toBe(true);
    for (const header of [undefined, `Bearer ${previous}`, `Bearer ${current}x`, current, `Basic ${current}`]) {
      expect(() => guard.canActivate(withAuthorization(header))).toThrow(ServiceError);
    }
  });

  it('reads the Bearer scheme case-insensitively, like the API key guard (RFC 9110)', () => {
    const guard = new AdminTokenGuard(loadGatewayConfig({ ADMIN_TOKEN: current }));
    expect(guard.canActivate(withAuthorization(`bearer ${current}`))).toBe(true);
    expect(guard.canActivate(withAuthorization(`BEARER ${current}`))).toBe(true);
    expect(() => guard.canActivate(withAuthorization(`bearer ${previous}`))).toThrow(ServiceError);
  });

  it('also accepts ADMIN_TOKEN_PREVIOUS while a rotation is under way', () => {
    const guard = new AdminTokenGuard(loadGatewayConfig({ ADMIN_TOKEN: current, ADMIN_TOKEN_PREVIOUS: previous }));
    expect(guard.canActivate(withAuthorization(`Bearer ${current}`))).toBe(true);
    expect(guard.canActivate(withAuthorization(`Bearer ${previous}`))).toBe(true);
  });
});
