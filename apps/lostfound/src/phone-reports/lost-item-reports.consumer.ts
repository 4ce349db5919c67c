import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  LostItemReportRpc,
  LostItemReportedEvent,
  ServiceError,
  isCalendarDate,
  type EventEnvelope,
  type LostItemReportView,
  type LostItemReportedData,
} from '@switchboard/contracts';
import { DurableEventPattern, RpcClient } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import { ClaimsRepository } from '../claims/claims.repository';
import { ClaimsService, type ClaimInput } from '../claims/claims.service';
import { LocationsRepository } from '../locations/locations.repository';
import { PhoneLinesRepository } from './phone-lines.repository';

export const LOST_ITEM_REPORTS_DURABLE = 'lostfound-lost-item-reports';

/** What a claim is filed under when the caller gave no name. */
const UNNAMED_CALLER = 'Caller (by phone)';

export type ReportOutcome = 'filed' | 'repeat' | 'no_line' | 'urgent' | 'unusable';

/**
 * Calls whose agent took a lost-item report become claims (docs/adr/0079-lostfound-custody-claimant-page-and-phone-reports.md): the
 * `call.lost_item_reported` event (ids and category only) names the call; its details, the caller's phone
 * included, are read from calls-media, which owns them. At least once in, exactly one claim out: the claim's
 * `call_sid` is unique and its insert is the check, so a redelivered or repeated event files nothing more.
 */
@Controller()
export class LostItemReportsConsumer {
  constructor(
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly rpc: RpcClient,
    private readonly lines: PhoneLinesRepository,
    private readonly locations: LocationsRepository,
    private readonly claimsRepository: ClaimsRepository,
    private readonly claims: ClaimsService,
  ) {}

  @DurableEventPattern(LostItemReportedEvent, { durable: LOST_ITEM_REPORTS_DURABLE, concurrency: 4 })
  async reported(@Payload() envelope: EventEnvelope<LostItemReportedData>): Promise<void> {
    await this.handle(envelope);
  }

  /** Files the call's claim once. A failure to read the report (calls-media away) throws: the event is redelivered. */
  async handle(envelope: EventEnvelope<LostItemReportedData>): Promise<ReportOutcome> {
    const data = envelope.data;
    const log = {
      event_id: envelope.id,
      call_sid: data.call_sid,
      account_id: data.account_id,
      number_id: data.number_id,
    };
    if (await this.claimsRepository.existsForCall(data.call_sid)) {
      this.logger.info(log, 'lost-item report already filed as a claim; repeat ignored');
      return 'repeat';
    }
    const line = await this.lines.find(data.account_id, data.number_id);
    const location = line ? await this.locations.findEnabled(data.account_id, line.location_id) : null;
    if (!location) {
      this.logger.info(log, 'lost-item report on a number that is no lost-and-found line; no claim filed');
      return 'no_line';
    }
    const report = await this.rpc
      .request(
        LostItemReportRpc,
        { call_sid: data.call_sid, account_id: data.account_id },
        { requestId: envelope.correlation_id },
      )
      .catch((error: unknown) => {
        // calls-media has no such report for the account: asking again cannot find one. Anything else (calls-media
        // away, a time-out) is thrown, and the event comes back later.
        if (error instanceof ServiceError && error.code === 'not_found') return null;
        throw error;
      });
    if (!report) {
      this.logger.warn(log, 'calls-media has no lost-item report for this call; no claim filed');
      return 'unusable';
    }
    try {
      const filed = await this.claims.fileAt(location, claimInput(report), {
        source: 'phone',
        callSid: data.call_sid,
        correlationId: envelope.correlation_id,
        urgentMessage: (category) =>
          `A lost ${category} reported by phone is urgent; the agent refers the caller to staff.`,
      });
      if (!filed) {
        this.logger.info(log, 'lost-item report already filed as a claim; repeat ignored');
        return 'repeat';
      }
      this.logger.info(
        { ...log, claim_id: filed.claim.id, location_id: location.id },
        'lost-item report filed as a claim',
      );
      return 'filed';
    } catch (error) {
      // Retrying cannot change these: the event is acknowledged and the call stays in calls-media.
      if (error instanceof ServiceError && error.code === 'urgent_category') {
        this.logger.warn(log, 'lost-item report of an urgent category; not taken as a claim');
        return 'urgent';
      }
      if (error instanceof ServiceError && error.code === 'invalid_request') {
        this.logger.warn({ ...log, reason: error.message }, 'lost-item report unusable as a claim; none filed');
        return 'unusable';
      }
      throw error;
    }
  }
}

/** The report as a claim: the caller's number is the claimant phone; `lost_at`'s UTC day is the lost_date. */
export function claimInput(report: LostItemReportView): ClaimInput {
  return {
    claimant_name: report.caller_name.trim() || UNNAMED_CALLER,
    claimant_phone: report.caller,
    category: report.category,
    description: report.description,
    color: report.color,
    lost_area: report.where_lost,
    lost_date: lostDate(report.lost_at),
  };
}

export function lostDate(lostAt: string): string | undefined {
  if (!lostAt) return undefined;
  const day = /^\d{4}-\d{2}-\d{2}$/.test(lostAt)
    ? lostAt
    : Number.isNaN(Date.parse(lostAt))
      ? undefined
      : new Date(lostAt).toISOString().slice(0, 10);
  return isCalendarDate(day) ? day : undefined;
}
