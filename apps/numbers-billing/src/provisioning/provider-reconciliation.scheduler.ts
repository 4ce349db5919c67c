import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { LOGGER, type Logger } from '@switchboard/observability';
import type { NumbersBillingConfig } from '../config/numbers-billing.config';
import { NUMBERS_BILLING_CONFIG } from '../config/tokens';
import { ProviderReconciliation } from './provider-reconciliation';

/**
 * Runs provider reconciliation once at start (a crash is the usual cause of a stray, and a restart follows it),
 * then every `PROVIDER_RECONCILE_INTERVAL_MS` (default 5 minutes; 0 turns both off). Every replica may run it: a
 * stray is released under its order's lock, and releasing one twice is harmless.
 */
@Injectable()
export class ProviderReconciliationScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly reconciliation: ProviderReconciliation,
    @Inject(NUMBERS_BILLING_CONFIG) private readonly config: NumbersBillingConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.providerReconcileIntervalMs <= 0) return;
    this.tick();
    this.timer = setInterval(() => this.tick(), this.config.providerReconcileIntervalMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private tick(): void {
    if (this.running) return;
    this.running = this.reconciliation
      .run()
      .then((report) => {
        if (report.released > 0 || report.failed > 0)
          this.logger.info({ ...report }, 'provider reconciliation finished');
      })
      .catch((err) => this.logger.warn({ err }, 'provider reconciliation failed; will retry'))
      .finally(() => (this.running = undefined));
  }
}
