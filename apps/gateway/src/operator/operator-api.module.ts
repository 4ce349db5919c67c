import { Module, type DynamicModule } from '@nestjs/common';
import { AdminTokenGuard } from '../auth';
import { GatewayCoreModule, type GatewayShared } from '../gateway-core.module';
import { AccountsAdminController } from './accounts.admin.controller';
import { ApiKeysAdminController } from './api-keys.admin.controller';
import { BillingAdminController } from './billing.admin.controller';
import { RetentionAdminController } from './retention.admin.controller';
import { ConsoleIdentityModule } from '../console/identity/console-identity.module';
import { DeadLettersAdminController } from './dead-letters.admin.controller';
import { EmailAdminController } from './email.admin.controller';
import { LocationsAdminController } from './locations.admin.controller';
import { ProviderCallsAdminController } from './provider-calls.admin.controller';
import { ProviderAdminController } from './provider.admin.controller';
import { SmsAdminController } from './sms.admin.controller';
import { UsersAdminController } from './users.admin.controller';
import { WebhookDeliveriesAdminController } from './webhook-deliveries.admin.controller';

/** The operator API under /admin on ADMIN_PORT (127.0.0.1 by default): every route is behind AdminTokenGuard. */
@Module({})
export class OperatorApiModule {
  static forRoot(shared: GatewayShared): DynamicModule {
    return {
      module: OperatorApiModule,
      imports: [GatewayCoreModule.forRoot(shared), ConsoleIdentityModule],
      controllers: [
        AccountsAdminController,
        ApiKeysAdminController,
        LocationsAdminController,
        SmsAdminController,
        // The console's people: an operator invites an account's first owner and reads the mail the system sent.
        UsersAdminController,
        EmailAdminController,
        WebhookDeliveriesAdminController,
        BillingAdminController,
        RetentionAdminController,
        // Stock and faults drive the simulated provider in numbers-billing; calls drive the one in calls-media.
        ProviderAdminController,
        ProviderCallsAdminController,
        // What the durable consumers gave up on, read from the dead-letter stream, and its replay.
        DeadLettersAdminController,
      ],
      providers: [AdminTokenGuard],
    };
  }
}
