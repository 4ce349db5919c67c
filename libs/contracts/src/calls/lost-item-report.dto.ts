import { IsString, Matches, MaxLength } from 'class-validator';
import { ACCOUNT_ID_PATTERN } from '../common/validation';

export class LostItemReportQuery {
  @IsString() @MaxLength(64) call_sid: string;
  @IsString() @Matches(ACCOUNT_ID_PATTERN) account_id: string;
}

/** A call's lost-item report as calls-media keeps it (docs/adr/0079). Empty strings for what was not said. */
export class LostItemReportView {
  call_sid: string;
  number_id: string;
  /** The caller's number (E.164): the claimant phone. */
  caller: string;
  caller_name: string;
  category: string;
  description: string;
  color: string;
  where_lost: string;
  /** YYYY-MM-DD or an ISO 8601 date-time; empty when not said. */
  lost_at: string;
}
