import type { Type } from '@nestjs/common';
import { GUARDS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import { AdminTokenGuard, ApiKeyGuard } from './auth';
import { ClaimantGuard } from './claimant/claimant.guard';
import { ClaimantHttpController } from './claimant/claimant.http.controller';
import { ClaimantModule } from './claimant/claimant.module';
import { CONSOLE_CONTROLLERS } from './console/console.module';
import { ConsoleOriginGuard, CsrfGuard } from './console/guards/csrf.guard';
import { ANY_ROLE, ROLES_METADATA, RoleGuard, type RoleRule } from './console/guards/roles';
import { SessionGuard } from './console/guards/session.guard';
import { ConsoleSessionController, ConsoleSignInController } from './console/identity.console.controller';
import { LostfoundConsoleController } from './console/lostfound.console.controller';
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
    expect(
      controllers.filter((controller) => !classGuards(controller).includes(ApiKeyGuard)).map((c) => c.name),
    ).toEqual([]);
  });

  it('puts the claimant page, the one public surface without a key, behind ClaimantGuard (a limit per address)', () => {
    expect(PublicApiModule.forRoot(shared).imports).toContain(ClaimantModule);
    expect(Reflect.getMetadata('controllers', ClaimantModule)).toEqual([ClaimantHttpController]);
    expect(classGuards(ClaimantHttpController)).toEqual([ClaimantGuard]);
  });

  it('puts every operator controller behind AdminTokenGuard', () => {
    const controllers = controllersOf(OperatorApiModule);
    expect(controllers.length).toBeGreaterThan(0);
    expect(
      controllers.filter((controller) => !classGuards(controller).includes(AdminTokenGuard)).map((c) => c.name),
    ).toEqual([]);
  });

  // The console forwards with the session's account: a controller without SessionGuard would reach the services for
  // no account, one without CsrfGuard would take changes from other sites, one without RoleGuard would let a viewer write.
  it('puts every console controller but sign-in behind SessionGuard, CsrfGuard and RoleGuard, in that order', () => {
    const controllers = CONSOLE_CONTROLLERS.filter((controller) => controller !== ConsoleSignInController);
    expect(controllers.length).toBeGreaterThan(1);
    expect(
      controllers
        .filter((controller) => !sameGuards(classGuards(controller), [SessionGuard, CsrfGuard, RoleGuard]))
        .map((c) => c.name),
    ).toEqual([]);
    expect(classGuards(ConsoleSignInController)).toEqual([ConsoleOriginGuard]);
  });

  it('keeps API keys off the console and sessions off the public API', () => {
    expect(
      CONSOLE_CONTROLLERS.filter((controller) => classGuards(controller).includes(ApiKeyGuard)).map((c) => c.name),
    ).toEqual([]);
    expect(
      controllersOf(PublicApiModule)
        .filter((controller) => classGuards(controller).includes(SessionGuard))
        .map((c) => c.name),
    ).toEqual([]);
  });

  // docs/adr/0080: venue staff see lost-and-found and nothing else. Every console route's rule is read as RoleGuard
  // reads it (its `@Roles()`, else every role but staff reads and owners change), so a new route cannot let staff in.
  it('lets the staff role reach only the lost-and-found desk and its own session', () => {
    const staffRoutes: string[] = [];
    for (const controller of CONSOLE_CONTROLLERS.filter((c) => c !== ConsoleSignInController)) {
      const prototype = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (
          name === 'constructor' ||
          typeof handler !== 'function' ||
          Reflect.getMetadata(PATH_METADATA, handler) === undefined
        )
          continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod;
        const rule = Reflect.getMetadata(ROLES_METADATA, handler) as RoleRule | undefined;
        const roles = rule?.roles ?? (method === RequestMethod.GET ? ANY_ROLE : ['owner']);
        if (roles.includes('staff')) staffRoutes.push(`${controller.name}.${name}`);
      }
    }
    expect(
      staffRoutes.filter(
        (route) =>
          !route.startsWith(`${LostfoundConsoleController.name}.`) &&
          !route.startsWith(`${ConsoleSessionController.name}.`),
      ),
    ).toEqual([]);
    expect(staffRoutes).toEqual(
      expect.arrayContaining([
        `${LostfoundConsoleController.name}.listItems`,
        `${LostfoundConsoleController.name}.reunite`,
        `${ConsoleSessionController.name}.session`,
      ]),
    );
  });
});
