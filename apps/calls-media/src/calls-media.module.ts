import { Module, type DynamicModule } from '@nestjs/common';
import { MessagingModule } from '@switchboard/messaging';
import { STREAMS } from '@switchboard/contracts';
import type { Logger } from '@switchboard/observability';
import { PrismaModule } from '@switchboard/persistence';
import { messagingConfigFromEnv, provideOutboxRelay } from '@switchboard/service-runtime';
import { join } from 'node:path';
import { CallDataDeletionsRepository } from './call-data/call-data-deletions.repository';
import { CallDataNatsController } from './call-data/call-data.nats.controller';
import { CallDataService } from './call-data/call-data.service';
import { DataSettingsRepository } from './call-data/data-settings.repository';
import { RetentionSweeper } from './call-data/retention.sweeper';
import { CallReportsRepository } from './call-reports/call-reports.repository';
import { CallReportsService } from './call-reports/call-reports.service';
import { CallReportsSweeper } from './call-reports/call-reports.sweeper';
import { LIVE_EVENTS_OUTLET } from './call-reports/live-events.port';
import { CallsNatsController } from './calls/calls.nats.controller';
import { LostItemReportsNatsController } from './lost-item-reports/lost-item-reports.nats.controller';
import { LostItemReportsRepository } from './lost-item-reports/lost-item-reports.repository';
import { CallsRepository } from './calls/calls.repository';
import { CallsService } from './calls/calls.service';
import { loadCallsMediaConfig } from './config/calls-media.config';
import { CALLS_MEDIA_CONFIG } from './config/tokens';
import { AnalysisFieldsConsumer } from './number-ownership/analysis-fields.consumer';
import { AnalysisFieldsRepository } from './number-ownership/analysis-fields.repository';
import { NumberEventsConsumer } from './number-ownership/number-events.consumer';
import { WAITING_REPORTS } from './number-ownership/waiting-reports.port';
import { NumberStatesRepository } from './number-ownership/number-states.repository';
import { CallsMediaPrisma, CallsMediaTransactions } from './prisma/calls-media-prisma';
import { objectStorageProvider } from './storage/object-storage.provider';
import { LiveCallEventsPublisher } from './live-calls/live-call-events.publisher';
import { LiveCallsNatsController } from './live-calls/live-calls.nats.controller';
import { LiveCallsRepository } from './live-calls/live-calls.repository';
import { LiveCallsService } from './live-calls/live-calls.service';
import { LiveCallsSweeper } from './live-calls/live-calls.sweeper';
import { CALL_REPORT_SINK, LIVE_CALL_SINK } from './telephony/call-report-sink.port';
import { SimulatedLiveCallsPlayer } from './telephony/simulated-live-calls.player';
import { SimulatedLiveCallsRepository } from './telephony/simulated-live-calls.repository';
import { SimulatedTelephonyAdapter } from './telephony/simulated-telephony.adapter';
import { SimulatedTelephonyNatsController } from './telephony/simulated-telephony.nats.controller';
import { ProviderCallsConsumer } from './provider-calls/provider-calls.consumer';
import { ProviderRecordingsRepository } from './provider-calls/provider-recordings.repository';

export interface CallsMediaOptions {
  env: NodeJS.ProcessEnv;
  logger: Logger;
}

@Module({})
export class CallsMediaModule {
  static forRoot({ env, logger }: CallsMediaOptions): DynamicModule {
    // Read and checked before anything connects: a bad value stops the service with a clear message.
    const config = loadCallsMediaConfig(env);
    return {
      module: CallsMediaModule,
      // NATS request handlers (`@RpcPattern`) and durable event consumers (`@DurableEventPattern`), served by the
      // message servers `startMessaging` connects (bootstrap.ts).
      controllers: [
        CallsNatsController,
        CallDataNatsController,
        LostItemReportsNatsController,
        SimulatedTelephonyNatsController,
        LiveCallsNatsController,
        NumberEventsConsumer,
        AnalysisFieldsConsumer,
        ProviderCallsConsumer,
      ],
      imports: [
        MessagingModule.forRoot({ service: 'calls-media', logger, config: messagingConfigFromEnv(env) }),
        PrismaModule.forRoot({
          client: CallsMediaPrisma,
          appName: 'calls-media',
          migrationsDir: join(__dirname, '..', 'prisma', 'migrations'),
          env,
        }),
      ],
      providers: [
        { provide: CALLS_MEDIA_CONFIG, useValue: config },
        objectStorageProvider,
        CallsMediaTransactions,
        provideOutboxRelay(CallsMediaTransactions, [STREAMS.calls]),
        NumberStatesRepository,
        AnalysisFieldsRepository,
        CallReportsRepository,
        CallReportsService,
        // number-ownership and telephony reach call-reports through their ports: call-reports imports them.
        { provide: WAITING_REPORTS, useExisting: CallReportsService },
        { provide: CALL_REPORT_SINK, useExisting: CallReportsService },
        CallReportsSweeper,
        // Calls while they happen (docs/live-calls.md); telephony reaches them through its port.
        LiveCallsRepository,
        LiveCallEventsPublisher,
        { provide: LIVE_EVENTS_OUTLET, useExisting: LiveCallEventsPublisher },
        LiveCallsService,
        { provide: LIVE_CALL_SINK, useExisting: LiveCallsService },
        LiveCallsSweeper,
        CallsRepository,
        CallsService,
        DataSettingsRepository,
        CallDataDeletionsRepository,
        CallDataService,
        RetentionSweeper,
        LostItemReportsRepository,
        SimulatedTelephonyAdapter,
        SimulatedLiveCallsRepository,
        SimulatedLiveCallsPlayer,
        // Calls reported by Retell and Twilio, verified by the gateway (docs/adr/0083).
        ProviderRecordingsRepository,
      ],
    };
  }
}
