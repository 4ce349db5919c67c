import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { isTestAccount } from '@switchboard/contracts';
import { LOGGER, type Logger } from '@switchboard/observability';
import { PollingWorker } from '@switchboard/service-runtime';
import { LOSTFOUND_CONFIG } from '../config/tokens';
import type { LostfoundConfig } from '../config/lostfound.config';
import { MatchesRepository } from '../matching/matches.repository';
import { matchText } from './claimant-texts';
import { ClaimTextsRepository } from './claim-texts.repository';
import { SMS_SENDER, SmsRejected, type SmsSender } from './sms.port';

const BATCH = 50;

/**
 * Texts claimants about matches recorded when an item was logged. Each (claim, item) pair is taken once, by a
 * single statement that marks it sent (the unique pair in claim_matches makes "once" hold across requests and
 * replicas); a failed send is given back and tried again on the next pass. `flush()` runs right after the commit
 * that recorded the matches, and a timer catches what a failure or a restart left.
 */
@Injectable()
export class MatchNotifier implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly worker: PollingWorker;

  constructor(
    private readonly matches: MatchesRepository,
    private readonly texts: ClaimTextsRepository,
    @Inject(SMS_SENDER) private readonly sms: SmsSender,
    @Inject(LOSTFOUND_CONFIG) config: LostfoundConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.worker = new PollingWorker({
      intervalMs: config.notifyRetryMs,
      pass: () => this.drain(),
      onError: (err) => this.logger.warn({ err }, 'texting claimants failed; will retry'),
      passAtStart: true,
    });
  }

  onApplicationBootstrap(): void {
    this.worker.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.worker.stop();
  }

  /**
   * Sends every pending text. Resolves after a pass that began after this call, so a request that has just
   * committed its matches can wait for its texts; concurrent calls share passes.
   */
  flush(): Promise<void> {
    return this.worker.kick();
  }

  private async drain(): Promise<void> {
    for (;;) {
      const pending = await this.matches.takePending(BATCH);
      for (const text of pending) {
        const body = matchText(text);
        try {
          await this.sms.send({ to: text.claimant_phone, body, livemode: !isTestAccount(text.account_id) });
          this.logger.info({ claim_id: text.claim_id, match_id: text.match_id }, 'claimant texted about a match');
        } catch (err) {
          if (err instanceof SmsRejected) {
            // Refused for good (the number cannot take texts): trying again would only be refused again.
            this.logger.warn(
              { err, claim_id: text.claim_id, match_id: text.match_id },
              'text to claimant refused by the SMS provider; not tried again',
            );
            continue;
          }
          this.logger.warn(
            { err, claim_id: text.claim_id, match_id: text.match_id },
            'text to claimant failed; will retry',
          );
          await this.matches.release(text.match_id);
          continue;
        }
        await this.recordSent(text.claim_id, text.match_id, body);
      }
      if (pending.length < BATCH) return;
    }
  }

  /**
   * Keeps a sent text on its claim for the desk. A failure here is logged, not retried: the claimant already has
   * the text, and giving the match back would text them twice.
   */
  private async recordSent(claimId: number, matchId: number, body: string): Promise<void> {
    try {
      await this.texts.recordSent(claimId, body);
    } catch (err) {
      this.logger.warn({ err, claim_id: claimId, match_id: matchId }, 'sent text not recorded on its claim');
    }
  }
}
