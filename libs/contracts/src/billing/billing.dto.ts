import { ApiProperty, ApiPropertyOptional } from '../common/api-property';
import { IsInt, IsISO8601, IsString, Matches, Max, Min } from 'class-validator';
import { CursorPageQuery } from '../common/pagination';
import { TIERS, type Tier } from '../accounts/account.dto';
import { ACCOUNT_ID_PATTERN, IsOmittable } from '../common/validation';

/** Money in the ledger is integer millicents: 1 cent = 1000 millicents (docs/adr/0013-money-and-talk-time.md). */
export const MILLICENTS_PER_CENT = 1000;
/**
 * `talk_time_adjustment`: a call's talk time corrected after it was billed (its late end report, `call.updated`), by
 * the difference: a charge when the call was longer, a credit when shorter (docs/money-and-minutes.md).
 */
const LEDGER_KINDS = ['top_up', 'auto_top_up', 'number_month', 'talk_time', 'talk_time_adjustment'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** `POST /admin/billing/run` body. */
export class RunBillingCycleBody {
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Run the monthly cycle as if the clock read this. Default: now.',
  })
  @IsOmittable()
  @IsISO8601({ strict: true }, { message: 'now must be an ISO 8601 date-time' })
  now?: string;
}

export class BillingRunResult {
  @ApiProperty({ description: 'Monthly charges made (one per number and period).' }) charged: number;
  @ApiProperty({ description: 'Numbers that became past_due because a charge could not be covered.' }) past_due: number;
  @ApiProperty({ description: 'Numbers released because their 7-day grace ended unpaid.' }) released: number;
}

/** `GET /admin/accounts/{account_id}/ledger` query. */
export class LedgerQuery extends CursorPageQuery {}

export class ListLedgerCommand extends LedgerQuery {
  @IsString()
  @Matches(ACCOUNT_ID_PATTERN)
  account_id: string;
}

export class LedgerEntryView {
  @ApiProperty({ example: 'le_12' }) id: string;
  @ApiProperty({ enum: LEDGER_KINDS }) kind: LedgerKind;
  @ApiProperty({ example: 'number_month:num_3:0', description: 'What the change is for; unique in the ledger.' })
  reference: string;
  @ApiProperty({ description: 'Signed amount in millicents (1 cent = 1000).' }) amount_millicents: number;
  @ApiProperty({ description: 'The balance right after this change, in millicents.' }) balance_after_millicents: number;
  @ApiProperty() description: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class LedgerPage {
  @ApiProperty() account_id: string;
  @ApiProperty({ description: 'The balance in whole cents, rounded down.' }) balance_cents: number;
  @ApiProperty({ description: 'The exact balance: the sum of every ledger row.' }) balance_millicents: number;
  @ApiProperty({ type: [LedgerEntryView], description: 'Newest first.' }) data: LedgerEntryView[];
  @ApiProperty() has_more: boolean;
}

/** `PUT /admin/payments/faults` body: the simulated card processor declines the next N charges. */
export class PaymentFaultsBody {
  @ApiProperty({ minimum: 0, maximum: 1_000_000 })
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  charge_failures: number;
}

export class PaymentFaultsView {
  @ApiProperty() charge_failures: number;
}

/** `GET /balance`: the caller's own account travels in the request's headers; the body is empty. */
export class GetBalanceQuery {}

/** `GET /balance` answer: the prepaid balance, the tier and this month's talk time (docs/adr/0057-public-api-rules.md). */
export class AccountBalance {
  @ApiProperty({ example: 4250, description: 'The prepaid balance in whole cents, rounded down.' })
  balance_cents: number;
  @ApiProperty({ enum: TIERS }) tier: Tier;
  @ApiProperty({
    example: '2026-11',
    description: 'The talk-time period: the calendar month (UTC) the minutes count toward.',
  })
  period: string;
  @ApiProperty({ example: 37, description: 'Whole minutes of talk time used this period (rounded down).' })
  minutes_used: number;
  @ApiProperty({ example: 2220, description: 'Talk time used this period, exact (billed by the second).' })
  seconds_used: number;
  @ApiProperty({
    example: 200,
    nullable: true,
    type: Number,
    description: "The tier's minutes a month; null for unlimited.",
  })
  minutes_included: number | null;
}
