import { Module, type Type } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency';
import { LiveCallStreamsModule } from '../live-calls/live-call-streams.module';
import { ConsoleOriginGuard, CsrfGuard } from './guards/csrf.guard';
import { RoleGuard } from './guards/roles';
import { SessionGuard } from './guards/session.guard';
import { ConsoleSessionController, ConsoleSignInController } from './identity.console.controller';
import { ConsoleIdentityModule } from './identity/console-identity.module';
import { CallsConsoleController } from './calls.console.controller';
import { DataSettingsConsoleController } from './data-settings.console.controller';
import { KeysConsoleController } from './keys.console.controller';
import { LostfoundConsoleController } from './lostfound.console.controller';
import { MoneyConsoleController } from './money.console.controller';
import { NumbersConsoleController } from './numbers.console.controller';
import { SessionModeConsoleController } from './session-mode.console.controller';
import { UsersConsoleController } from './users.console.controller';

/** Every controller of `/console/api/*`, in one list (the surfaces test reads it). */
export const CONSOLE_CONTROLLERS: Type[] = [
  ConsoleSignInController,
  ConsoleSessionController,
  SessionModeConsoleController,
  UsersConsoleController,
  KeysConsoleController,
  NumbersConsoleController,
  CallsConsoleController,
  DataSettingsConsoleController,
  MoneyConsoleController,
  LostfoundConsoleController,
];

/**
 * The console's JSON API on the public port, beside `/v1` (docs/adr/0080): sessions instead of API keys, the same
 * services behind. Every controller but sign-in is behind SessionGuard, CsrfGuard and RoleGuard.
 */
@Module({
  // LiveCallStreamsModule: the calls page's "Live now" opens its stream through the public API's instance.
  // IdempotencyModule: `@Idempotent()` on provisioning and number changes, as on /v1.
  imports: [ConsoleIdentityModule, LiveCallStreamsModule, IdempotencyModule],
  controllers: CONSOLE_CONTROLLERS,
  providers: [SessionGuard, CsrfGuard, ConsoleOriginGuard, RoleGuard],
})
export class ConsoleModule {}
