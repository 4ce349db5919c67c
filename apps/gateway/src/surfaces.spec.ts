import type { Type } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants';
import { AdminTokenGuard, ApiKeyGuard } from './auth';
import { CONSOLE_CONTROLLERS } from './console/console.module';
import { ConsoleOriginGuard, CsrfGuard } from './console/guards/csrf.guard';
import { RoleGuard } from './console/guards/roles';
import { SessionGuard } from './console/guards/session.guard';
import { ConsoleSignInController } from './console/identity.console.controller';
import type { GatewayShared } from './gateway-core.module';
import { OperatorApiModule } from './operator/operator-api.module';
import { HealthController } from './public/health.controller';
import { PublicApiModule } from './public/public-api.module';

const shared = { messaging: {} } as unknown as GatewayShared;

function controllersOf(module: { forRoot(shared: GatewayShared): { controllers?: Type[] } }): Type[] {
  return module.forRoot(shared).controllers ?? [];
}

function classGuards(controller: Type): unknown[] {
  return (Reflect.getMetadata(GUARDS_METADATA, controller) as unknown[] | undefined) ?? [];
}

function sameGuards(actual: unknown[], expected: unknown[]): boolean {
  return actual.length === expected.length && actual.every((guard, i) => guard === expected[i]);
}

// `@Caller()` sends `accountId` only when ApiKeyGuard has authenticated the request: a public controller without
// the guard would reach the services for no account, so each surface's guard is checked on every controller.
describe('gateway surfaces', () => {
  it('puts every public controller but the health probes behind ApiKeyGuard', () => {
    const controllers = controllersOf(PublicApiModule).filter((controller) => controller !== HealthController);
    expect(controllers.length).toBeGreaterThan(0);
    expect(controllers.filter((controller) => !classGuards(controller).includes(ApiKeyGuard)).map((c) => c.name)).toEqual([]);
  });

  it('puts every operator controller behind AdminTokenGuard', () => {
    const controllers = controllersOf(OperatorApiModule);
    expect(controllers.length).toBeGreaterThan(0);
    expect(controllers.filter((controller) => !classGuards(controller).includes(AdminTokenGuard)).map((c) => c.name)).toEqual([]);
  });

  // The console forwards with the session's account: a controller without SessionGuard would reach the services for
  // no account, one without CsrfGuard would take changes from other sites, one without RoleGuard would let a viewer write.
  it('puts every console controller but sign-in behind SessionGuard, CsrfGuard and RoleGuard, in that order', () => {
    const controllers = CONSOLE_CONTROLLERS.filter((controller) => controller !== ConsoleSignInController);
    expect(controllers.length).toBeGreaterThan(1);
    expect(controllers.filter((controller) => !sameGuards(classGuards(controller), [SessionGuard, CsrfGuard, RoleGuard])).map((c) => c.name)).toEqual([]);
    expect(classGuards(ConsoleSignInController)).toEqual([ConsoleOriginGuard]);
  });

  it('keeps API keys off the console and sessions off the public API', () => {
    expect(CONSOLE_CONTROLLERS.filter((controller) => classGuards(controller).includes(ApiKeyGuard)).map((c) => c.name)).toEqual([]);
    expect(controllersOf(PublicApiModule).filter((controller) => classGuards(controller).includes(SessionGuard)).map((c) => c.name)).toEqual([]);
  });
});
