import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, IsUrl, Matches, MaxLength } from 'class-validator';
import { CursorPageQuery } from '../common/pagination';
import { IsUsAreaCode, IsUsE164 } from '../common/phone';

export const NUMBER_STATUSES = ['active', 'past_due', 'released'] as const;
export type NumberStatus = (typeof NUMBER_STATUSES)[number];
export const NUMBER_ID_PATTERN = /^num_[1-9]\d{0,17}$/;
export const MAX_URL_LENGTH = 2048;

/** `POST /numbers` body (spec part 2, NumberCreate). */
export class NumberCreate {
  @ApiProperty({ example: '+14155550123', description: 'E.164 US number the agent answers for.' })
  @IsUsE164()
  business_phone: string;

  @ApiPropertyOptional({ example: '415', description: 'Preferred area code. Default: the area of business_phone.' })
  @IsOptional()
  @IsUsAreaCode()
  area_code?: string;

  @ApiPropertyOptional({
    example: 'https://example.com/hooks/switchboard',
    format: 'uri',
    description: 'Public HTTPS endpoint for call events. Private, loopback and link-local hosts are refused.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  @IsUrl(
    { protocols: ['https'], require_protocol: true, require_tld: false, allow_underscores: true },
    { message: 'webhook_url must be an absolute https:// URL' },
  )
  webhook_url?: string;
}

export class NumberView {
  @ApiProperty({ example: 'num_1' }) id: string;
  @ApiProperty({ example: '+14155550100' }) phone_number: string;
  @ApiProperty({ example: '+14155550123' }) business_phone: string;
  @ApiProperty({ enum: NUMBER_STATUSES }) status: NumberStatus;
  @ApiProperty({ format: 'uri', nullable: true, description: 'Null when no webhook is set.' }) webhook_url: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class NumberCreated extends NumberView {
  @ApiProperty({ description: 'HMAC key for webhook signatures. Returned only in this response.' })
  webhook_secret: string;
}

export class NumberList {
  @ApiProperty({ type: [NumberView] }) data: NumberView[];
  @ApiProperty({ description: 'True when more numbers follow; pass the last id as starting_after.' }) has_more: boolean;
}

export class ListNumbersQuery extends CursorPageQuery {}

/** The `Idempotency-Key` header: 1 to 255 visible ASCII characters. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * What the gateway sends numbers-billing: the body, plus the caller's `Idempotency-Key` when one was sent. A
 * retry with the same key and body answers the first result without buying or charging again.
 */
export class ProvisionNumberCommand extends NumberCreate {
  @IsOptional()
  @IsString()
  @Matches(IDEMPOTENCY_KEY_PATTERN, { message: 'idempotency_key must be 1 to 255 visible ASCII characters' })
  idempotency_key?: string;
}

/** `DELETE /numbers/{id}`: `num_<n>` or `<n>` (spec part 4: both forms appear). */
export class ReleaseNumberCommand {
  @IsString()
  @Matches(/^(num_)?[1-9]\d{0,17}$/, { message: 'id must be a number id (num_<n> or <n>)' })
  id: string;
}

export class NumberReleased {
  @ApiProperty() released: boolean;
}
