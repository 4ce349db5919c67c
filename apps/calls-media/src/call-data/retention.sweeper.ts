import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { LOGGER, type Logger } from '@switchboard/observability';
import { PollingWorker } from '@switchboard/service-runtime';
import type { CallsMediaConfig } from '../config/calls-media.config';
import { CALLS_MEDIA_CONFIG } from '../config/tokens';
import { CallDataService } from './call-data.service';

/** Every `RETENTION_SWEEP_MS`, deletes what the accounts' retention periods let expire, and retries queued objects. */
@Injectable()
export class RetentionSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly worker: PollingWorker;
  /** Set at shutdown: the sweep under way stops after its current batch (the next sweep takes over). */
  private stopping = false;

  constructor(
    callData: CallDataService,
    @Inject(CALLS_MEDIA_CONFIG) config: CallsMediaConfig,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.worker = new PollingWorker({
      intervalMs: config.retentionSweepMs,
      pass: () => callData.sweep(new Date(), () => this.stopping),
      onError: (err) => logger.warn({ err }, 'retention sweep failed; will retry'),
    });
  }

  onApplicationBootstrap(): void {
    this.worker.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    return this.worker.stop();
  }
}
