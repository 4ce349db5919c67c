import { ApiProperty, ApiPropertyOptional } from '../common/api-property';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { ACCOUNT_ID_PATTERN, IsOmittable, MAX_INT4, MAX_NAME_LENGTH } from '../common/validation';

export const TIERS = ['starter', 'growth', 'scale'] as const;
export type Tier = (typeof TIERS)[number];

/** Auto-top-up bounds of spec part 8: $5 to $500 per top-up. */
const AUTO_TOP_UP_MIN_CENTS = 500;
const AUTO_TOP_UP_MAX_CENTS = 50_000;
export const DEFAULT_NUMBER_LIMIT = 5;

/**
 * The most an account's balance may hold through the operator API: $10,000,000,000.00. An opening balance or a credit
 * that would take the balance past it is refused with 400 naming the field, changing nothing (ADR 0057). It keeps the
 * balance, in millicents, far inside a PostgreSQL `bigint` and an exact JSON number (the ledger answers millicents),
 * with room for an auto-top-up already paid for, which is credited whatever the balance.
 */
export const MAX_BALANCE_CENTS = 1_000_000_000_000;

export class AutoTopUp {
  @ApiProperty({ minimum: 0, maximum: MAX_INT4 })
  @IsInt()
  @Min(0)
  @Max(MAX_INT4)
  threshold_cents: number;

  @ApiProperty({ minimum: AUTO_TOP_UP_MIN_CENTS, maximum: AUTO_TOP_UP_MAX_CENTS })
  @IsInt()
  @Min(AUTO_TOP_UP_MIN_CENTS)
  @Max(AUTO_TOP_UP_MAX_CENTS)
  amount_cents: number;
}

/** `POST /admin/accounts` body. */
export class CreateAccountBody {
  @ApiProperty({ maxLength: MAX_NAME_LENGTH })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_NAME_LENGTH)
  name: string;

  @ApiPropertyOptional({ minimum: 0, maximum: MAX_BALANCE_CENTS, default: 0 })
  @IsOmittable()
  @IsInt()
  @Min(0)
  @Max(MAX_BALANCE_CENTS)
  balance_cents?: number;

  @ApiPropertyOptional({ enum: TIERS, default: 'starter' })
  @IsOmittable()
  @IsIn(TIERS)
  tier?: Tier;
}

/**
 * `PATCH /admin/accounts/{account_id}` body: any of the fields. `null` is no value for `tier` or `number_limit` (400
 * naming it, not "unchanged"); `auto_top_up: null` turns auto-top-up off.
 */
export class UpdateAccountBody {
  @ApiPropertyOptional({ enum: TIERS })
  @IsOmittable()
  @IsIn(TIERS)
  tier?: Tier;

  @ApiPropertyOptional({ minimum: 0, maximum: 1_000_000 })
  @IsOmittable()
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  number_limit?: number;

  @ApiPropertyOptional({ type: AutoTopUp, nullable: true })
  @ValidateIf((_, value) => value !== null && value !== undefined)
  @IsObject()
  @ValidateNested()
  @Type(() => AutoTopUp)
  auto_top_up?: AutoTopUp | null;
}

/**
 * `POST /admin/accounts/{account_id}/credits` body. A credit that would take the balance past `MAX_BALANCE_CENTS` is
 * refused by numbers-billing with 400 `invalid_request` naming `amount_cents`, and changes nothing.
 */
export class CreditAccountBody {
  @ApiProperty({
    minimum: 1,
    maximum: MAX_BALANCE_CENTS,
    description: `Cents to add. The balance after it may be at most ${MAX_BALANCE_CENTS} ($10,000,000,000.00): a credit that would take it past that is refused with 400 invalid_request, changing nothing.`,
  })
  @IsInt()
  @Min(1)
  @Max(MAX_BALANCE_CENTS)
  amount_cents: number;
}

export class AccountIdParam {
  @IsString()
  @Matches(ACCOUNT_ID_PATTERN, { message: 'account_id must be an account id (acct_...)' })
  account_id: string;
}

export class GetAccountQuery extends AccountIdParam {}

export class UpdateAccountCommand extends UpdateAccountBody {
  @IsString()
  @Matches(ACCOUNT_ID_PATTERN)
  account_id: string;
}

export class CreditAccountCommand extends CreditAccountBody {
  @IsString()
  @Matches(ACCOUNT_ID_PATTERN)
  account_id: string;
}

export class AccountView {
  @ApiProperty({ example: 'acct_0123456789abcdefghij' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() balance_cents: number;
  @ApiProperty({ enum: TIERS }) tier: Tier;
  @ApiProperty() number_limit: number;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ type: AutoTopUp, nullable: true }) auto_top_up: AutoTopUp | null;
}

export class BalanceView {
  @ApiProperty() balance_cents: number;
}
