import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from '@switchboard/observability';
import { CALLS_MEDIA_CONFIG, type CallsMediaConfig } from '../config/calls-media.config';
import { CALLS_MEDIA_LOGGER } from '../config/tokens';
import { CallReportsService } from './call-reports.service';

/** Every few seconds, tries waiting reports again and discards the ones whose grace period is over. */
@Injectable()
export class CallReportsSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;

  constructor(
    private readonly reports: CallReportsService,
    @Inject(CALLS_MEDIA_CONFIG) private readonly config: CallsMediaConfig,
    @Inject(CALLS_MEDIA_LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.schedule();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.reports
        .sweep()
        .catch((err: unknown) => this.logger.warn({ err }, 'call report sweep failed; will retry'))
        .finally(() => {
          this.running = undefined;
          this.schedule();
        });
    }, this.config.attributionSweepMs);
    this.timer.unref();
  }
}
