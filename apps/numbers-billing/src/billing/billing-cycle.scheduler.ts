import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import type { NumbersBillingConfig } from '../config/numbers-billing.config';
import { NUMBERS_BILLING_CONFIG, NUMBERS_BILLING_LOGGER } from '../config/tokens';
import { BillingCycleService } from './billing-cycle.service';

/**
 * Runs the billing cycle every `BILLING_CYCLE_INTERVAL_MS` (default one hour; 0 turns it off; off by default when
 * NODE_ENV=test). Every replica may run it: the cycle is safe to run concurrently.
 */
@Injectable()
export class BillingCycleScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly cycle: BillingCycleService,
    @Inject(NUMBERS_BILLING_CONFIG) private readonly config: NumbersBillingConfig,
    @Inject(NUMBERS_BILLING_LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.billingCycleIntervalMs <= 0) return;
    this.timer = setInterval(() => this.tick(), this.config.billingCycleIntervalMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private tick(): void {
    if (this.running) return;
    this.running = this.cycle
      .run(new Date(), `billing-schedule-${Date.now()}`)
      .catch((err) => this.logger.error({ err }, 'scheduled billing cycle failed'))
      .finally(() => (this.running = undefined));
  }
}
