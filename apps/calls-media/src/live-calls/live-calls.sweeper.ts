import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { LOGGER, type Logger } from '@switchboard/observability';
import { PollingWorker } from '@switchboard/service-runtime';
import type { CallsMediaConfig } from '../config/calls-media.config';
import { CALLS_MEDIA_CONFIG } from '../config/tokens';
import { LiveCallsService } from './live-calls.service';

/** How long a call's live events stay after it ended: a stream that reconnects within it resumes exactly. */
export const LIVE_EVENTS_KEEP_MINUTES = 60;

/**
 * Every `LIVE_CALLS_SWEEP_MS`: closes the calls whose end never came as incomplete, and purges old live events. Any
 * replica may run it at once as another: a call is recorded once per call SID (docs/live-calls.md).
 */
@Injectable()
export class LiveCallsSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly worker: PollingWorker;

  constructor(
    live: LiveCallsService,
    @Inject(CALLS_MEDIA_CONFIG) config: CallsMediaConfig,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.worker = new PollingWorker({
      intervalMs: config.liveCallsSweepMs,
      pass: async () => {
        const now = new Date();
        await live.closeOverdue(now);
        return live.purge(now, LIVE_EVENTS_KEEP_MINUTES);
      },
      onError: (err) => logger.warn({ err }, 'live calls sweep failed; will retry'),
    });
  }

  onApplicationBootstrap(): void {
    this.worker.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.worker.stop();
  }
}
