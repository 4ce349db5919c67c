import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { PollingWorker } from '@switchboard/service-runtime';
import { LOGGER, type Logger } from '@switchboard/observability';
import type { NumbersBillingConfig } from '../config/numbers-billing.config';
import { NUMBERS_BILLING_CONFIG } from '../config/tokens';
import { BillingCycleService } from './billing-cycle.service';

/**
 * Runs the billing cycle every `BILLING_CYCLE_INTERVAL_MS` (default one hour; 0 turns it off; off by default when
 * NODE_ENV=test). Every replica may run it: the cycle is safe to run concurrently.
 */
@Injectable()
export class BillingCycleScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly worker: PollingWorker;

  constructor(
    cycle: BillingCycleService,
    @Inject(NUMBERS_BILLING_CONFIG) private readonly config: NumbersBillingConfig,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.worker = new PollingWorker({
      intervalMs: config.billingCycleIntervalMs,
      pass: () => cycle.run(new Date(), `billing-schedule-${Date.now()}`),
      onError: (err) => logger.error({ err }, 'scheduled billing cycle failed'),
    });
  }

  onApplicationBootstrap(): void {
    if (this.config.billingCycleIntervalMs <= 0) return;
    this.worker.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.worker.stop();
  }
}
