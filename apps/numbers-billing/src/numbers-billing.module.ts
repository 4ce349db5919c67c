import { Module, type DynamicModule } from '@nestjs/common';
import { MessagingModule, messagingConfigFromEnv } from '@switchboard/messaging';
import type { Logger } from '@switchboard/observability';
import { PrismaModule } from '@switchboard/persistence';
import { join } from 'node:path';
import { AccountsNatsController } from './accounts/accounts.nats.controller';
import { AccountsRepository } from './accounts/accounts.repository';
import { AccountsService } from './accounts/accounts.service';
import { NumbersBillingPrisma } from './prisma/numbers-billing-prisma';

export interface NumbersBillingOptions {
  env: NodeJS.ProcessEnv;
  logger: Logger;
}

@Module({})
export class NumbersBillingModule {
  static forRoot({ env, logger }: NumbersBillingOptions): DynamicModule {
    return {
      module: NumbersBillingModule,
      imports: [
        MessagingModule.forRoot({ service: 'numbers-billing', logger, config: messagingConfigFromEnv(env) }),
        PrismaModule.forRoot({
          client: NumbersBillingPrisma,
          appName: 'numbers-billing',
          migrationsDir: join(__dirname, '..', 'prisma', 'migrations'),
          env,
        }),
      ],
      providers: [AccountsRepository, AccountsService, AccountsNatsController],
    };
  }
}
