import { Module, type DynamicModule } from '@nestjs/common';
import { STREAMS } from '@switchboard/contracts';
import { MessagingModule } from '@switchboard/messaging';
import type { Logger } from '@switchboard/observability';
import { PrismaModule } from '@switchboard/persistence';
import { messagingConfigFromEnv, provideOutboxRelay } from '@switchboard/service-runtime';
import { join } from 'node:path';
import { LOSTFOUND_CONFIG } from './config/tokens';
import { ClaimantNatsController } from './claimant/claimant.nats.controller';
import { ClaimantService } from './claimant/claimant.service';
import { ClaimsNatsController } from './claims/claims.nats.controller';
import { LostfoundClock } from './common/clock';
import { ClaimsRepository } from './claims/claims.repository';
import { ClaimsService } from './claims/claims.service';
import { ReuniteService } from './claims/reunite.service';
import { loadLostfoundConfig } from './config/lostfound.config';
import { FoundItemsNatsController } from './found-items/found-items.nats.controller';
import { CLAIM_CANDIDATES } from './found-items/claim-candidates.port';
import { FoundItemsRepository } from './found-items/found-items.repository';
import { FoundItemsService } from './found-items/found-items.service';
import { LocationsNatsController } from './locations/locations.nats.controller';
import { LocationsRepository } from './locations/locations.repository';
import { LocationsService } from './locations/locations.service';
import { MatchesRepository } from './matching/matches.repository';
import { MatchingService } from './matching/matching.service';
import { LostItemReportsConsumer } from './phone-reports/lost-item-reports.consumer';
import { PhoneLinesNatsController } from './phone-reports/phone-lines.nats.controller';
import { PhoneLinesRepository } from './phone-reports/phone-lines.repository';
import { PhoneLinesService } from './phone-reports/phone-lines.service';
import { LostfoundPrisma, LostfoundTransactions } from './prisma/lostfound-prisma';
import { MatchNotifier } from './sms/match-notifier';
import { SimulatedSmsAdapter } from './sms/simulated-sms.adapter';
import { SmsNatsController } from './sms/sms.nats.controller';
import { smsSenderProvider } from './sms/sms.provider';
import { DailyTextCountsRepository } from './sms/daily-text-counts.repository';
import { ClaimTextsRepository } from './sms/claim-texts.repository';
import { TextingLimits } from './sms/texting-limits';

export interface LostfoundOptions {
  env: NodeJS.ProcessEnv;
  logger: Logger;
}

export const MIGRATIONS_DIR = join(__dirname, '..', 'prisma', 'migrations');

@Module({})
export class LostfoundModule {
  static forRoot({ env, logger }: LostfoundOptions): DynamicModule {
    const config = loadLostfoundConfig(env);
    return {
      module: LostfoundModule,
      // NATS request handlers (`@RpcPattern`) and durable event consumers (`@DurableEventPattern`), served by the
      // message servers `startMessaging` connects (bootstrap.ts).
      controllers: [
        LocationsNatsController,
        FoundItemsNatsController,
        ClaimsNatsController,
        SmsNatsController,
        ClaimantNatsController,
        PhoneLinesNatsController,
        LostItemReportsConsumer,
      ],
      imports: [
        MessagingModule.forRoot({ service: 'lostfound', logger, config: messagingConfigFromEnv(env) }),
        PrismaModule.forRoot({ client: LostfoundPrisma, appName: 'lostfound', migrationsDir: MIGRATIONS_DIR, env }),
      ],
      providers: [
        { provide: LOSTFOUND_CONFIG, useValue: config },
        // The SMS port: the simulated provider is the only adapter so far (LOSTFOUND_SMS_PROVIDER=simulated).
        SimulatedSmsAdapter,
        // Twilio for live accounts with LOSTFOUND_SMS_PROVIDER=twilio (docs/adr/0083); the simulated provider otherwise.
        smsSenderProvider,
        provideOutboxRelay(LostfoundTransactions, [STREAMS.lostfound]),
        LostfoundTransactions,
        MatchNotifier,
        DailyTextCountsRepository,
        ClaimTextsRepository,
        TextingLimits,
        LocationsRepository,
        LocationsService,
        FoundItemsRepository,
        FoundItemsService,
        ClaimsRepository,
        // Found items match new items against claims through their port: claims import found items, not back.
        { provide: CLAIM_CANDIDATES, useExisting: ClaimsRepository },
        ClaimsService,
        ReuniteService,
        MatchesRepository,
        MatchingService,
        LostfoundClock,
        ClaimantService,
        PhoneLinesRepository,
        PhoneLinesService,
      ],
    };
  }
}
