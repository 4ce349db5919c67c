import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ServiceError, type ConsoleRole } from '@switchboard/contracts';
import type { FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../../config/gateway.config';
import type { ConsoleSessionInfo } from '../identity/console-session';
import type { SessionsService } from '../identity/sessions.service';
import { csrfTokenOf, newToken } from '../identity/secrets';
import { ConsoleOriginGuard, CsrfGuard } from './csrf.guard';
import { RoleGuard, Roles } from './roles';
import { SessionGuard } from './session.guard';

const config = { console: { origin: 'http://127.0.0.1:3000' } } as GatewayConfig;

class Routes {
  @Roles(['owner', 'developer'], 'create API keys')
  createKey(): void {}
  unmarked(): void {}
}

function contextFor(
  request: Partial<FastifyRequest>,
  handler: () => void = Routes.prototype.unmarked,
): ExecutionContext {
  return {
    switchToHttp: () => ({ getRequest: () => request }),
    getHandler: () => handler,
    getClass: () => Routes,
  } as unknown as ExecutionContext;
}

function session(role: ConsoleRole, token = newToken(), mode: ConsoleSessionInfo['mode'] = 'live'): ConsoleSessionInfo {
  return {
    tokenHash: 'h',
    userId: 'usr_1',
    accountId: 'acct_1',
    email: 'a@example.com',
    role,
    csrfToken: csrfTokenOf(token),
    mode,
  };
}

function refusal(run: () => unknown): ServiceError {
  try {
    run();
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('SessionGuard', () => {
  it('lets a live session through and puts it on the request', async () => {
    const token = newToken();
    const live = session('viewer', token);
    const sessions = {
      find: jest.fn(async (t: string) => (t === token ? live : undefined)),
    } as unknown as SessionsService;
    const request: Partial<FastifyRequest> = { headers: { cookie: `sb_session=${token}` } };
    await expect(new SessionGuard(sessions).canActivate(contextFor(request))).resolves.toBe(true);
    expect(request.consoleSession).toBe(live);
    expect(request.sessionAccountId).toBe('acct_1');
  });

  it("sends a test-mode session's requests to the test twin, keeping the live account on the session", async () => {
    const token = newToken();
    const testing = session('viewer', token, 'test');
    const sessions = { find: jest.fn(async () => testing) } as unknown as SessionsService;
    const request: Partial<FastifyRequest> = { headers: { cookie: `sb_session=${token}` } };
    await expect(new SessionGuard(sessions).canActivate(contextFor(request))).resolves.toBe(true);
    expect(request.sessionAccountId).toBe('acct_test_1');
    expect(request.consoleSession?.accountId).toBe('acct_1');
  });

  it('refuses no cookie, a malformed one and an unknown one with 401 not_signed_in, looking up only well-formed ones', async () => {
    const sessions = { find: jest.fn(async () => undefined) } as unknown as SessionsService;
    const guard = new SessionGuard(sessions);
    for (const cookie of [undefined, 'sb_session=forged', `sb_session=${newToken()}`]) {
      await expect(guard.canActivate(contextFor({ headers: { cookie } }))).rejects.toMatchObject({
        code: 'not_signed_in',
        status: 401,
      });
    }
    expect(sessions.find).toHaveBeenCalledTimes(1);
  });
});

describe('CsrfGuard', () => {
  const token = newToken();
  const guard = new CsrfGuard(config);
  const post = (headers: Record<string, string>) =>
    contextFor({
      method: 'POST',
      protocol: 'http',
      headers: { host: '127.0.0.1:3000', ...headers },
      consoleSession: session('owner', token),
    });

  it("lets reads through, and changes carrying the session's token from the console's origin", () => {
    expect(guard.canActivate(contextFor({ method: 'GET', headers: {} }))).toBe(true);
    expect(guard.canActivate(post({ 'x-csrf-token': csrfTokenOf(token) }))).toBe(true);
    expect(guard.canActivate(post({ 'x-csrf-token': csrfTokenOf(token), origin: 'http://127.0.0.1:3000' }))).toBe(true);
    // The origin the request was addressed to: the console reached as localhost.
    expect(
      guard.canActivate(
        contextFor({
          method: 'DELETE',
          protocol: 'http',
          headers: { host: 'localhost:3000', origin: 'http://localhost:3000', 'x-csrf-token': csrfTokenOf(token) },
          consoleSession: session('owner', token),
        }),
      ),
    ).toBe(true);
  });

  it("refuses a missing or wrong token, another session's, and another site's origin with 403 csrf_failed", () => {
    const cases: Record<string, string>[] = [
      {},
      { 'x-csrf-token': 'nope' },
      { 'x-csrf-token': csrfTokenOf(newToken()) },
      { 'x-csrf-token': csrfTokenOf(token), origin: 'https://evil.example' },
      { 'x-csrf-token': csrfTokenOf(token), origin: 'null' },
    ];
    for (const headers of cases) {
      const error = refusal(() => guard.canActivate(post(headers)));
      expect(error).toMatchObject({ code: 'csrf_failed', status: 403 });
    }
  });

  it('checks the origin of sign-in too, which has no session yet', () => {
    const origin = new ConsoleOriginGuard(config);
    expect(
      origin.canActivate(contextFor({ method: 'POST', protocol: 'http', headers: { host: '127.0.0.1:3000' } })),
    ).toBe(true);
    expect(
      refusal(() =>
        origin.canActivate(
          contextFor({
            method: 'POST',
            protocol: 'http',
            headers: { host: '127.0.0.1:3000', origin: 'https://evil.example' },
          }),
        ),
      ),
    ).toMatchObject({ code: 'csrf_failed' });
  });
});

describe('RoleGuard', () => {
  const guard = new RoleGuard(new Reflector());
  const as = (role: ConsoleRole, method: string, handler?: () => void) =>
    contextFor(
      {
        method,
        url: '/console/api/x',
        routeOptions: { url: '/console/api/x' } as never,
        consoleSession: session(role),
      },
      handler,
    );

  it('lets the roles a route names through', () => {
    expect(guard.canActivate(as('owner', 'POST', Routes.prototype.createKey))).toBe(true);
    expect(guard.canActivate(as('developer', 'POST', Routes.prototype.createKey))).toBe(true);
  });

  it('refuses other roles with 403 forbidden, naming the role and the action', () => {
    const error = refusal(() => guard.canActivate(as('viewer', 'POST', Routes.prototype.createKey)));
    expect(error).toMatchObject({ code: 'forbidden', status: 403 });
    expect(error.message).toMatch(/^A viewer user cannot create API keys; it takes the role owner or developer/);
  });

  it('fails closed on a route without a rule: every role but staff reads, only owners change', () => {
    expect(guard.canActivate(as('viewer', 'GET'))).toBe(true);
    expect(refusal(() => guard.canActivate(as('staff', 'GET'))).message).toMatch(
      /^A staff user cannot GET \/console\/api\/x; it takes the role owner or developer or viewer/,
    );
    expect(guard.canActivate(as('owner', 'DELETE'))).toBe(true);
    expect(refusal(() => guard.canActivate(as('developer', 'DELETE'))).message).toMatch(
      /cannot DELETE \/console\/api\/x; only an owner can/,
    );
  });
});
