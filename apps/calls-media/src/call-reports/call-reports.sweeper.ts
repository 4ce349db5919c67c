import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { LOGGER, type Logger } from '@switchboard/observability';
import { PollingWorker } from '@switchboard/service-runtime';
import { CALLS_MEDIA_CONFIG } from '../config/tokens';
import type { CallsMediaConfig } from '../config/calls-media.config';
import { CallReportsService } from './call-reports.service';

/** Every few seconds, tries waiting reports again and discards the ones whose grace period is over. */
@Injectable()
export class CallReportsSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly worker: PollingWorker;

  constructor(
    reports: CallReportsService,
    @Inject(CALLS_MEDIA_CONFIG) config: CallsMediaConfig,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.worker = new PollingWorker({
      intervalMs: config.attributionSweepMs,
      pass: () => reports.sweep(),
      onError: (err) => logger.warn({ err }, 'call report sweep failed; will retry'),
    });
  }

  onApplicationBootstrap(): void {
    this.worker.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.worker.stop();
  }
}
