import { ApiProperty } from '../common/api-property';
import { Transform } from 'class-transformer';
import { IsString } from 'class-validator';
import { IsE164 } from '../common/phone';

/**
 * `GET /admin/sms?to=E.164`. An unencoded `+` in a query string arrives as a space (`?to=+1415...`), so a
 * leading space before digits is read back as the `+` it was.
 */
export class ListSmsQuery {
  @ApiProperty({ example: '+14155550123' })
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^ \d/.test(value) ? `+${value.slice(1)}` : value,
  )
  @IsString()
  @IsE164()
  to: string;
}

export class SmsView {
  @ApiProperty({ example: '+14155550123' }) to: string;
  @ApiProperty() body: string;
  @ApiProperty({ format: 'date-time' }) sent_at: string;
}

export class SmsList {
  @ApiProperty({ type: [SmsView], description: 'Newest first.' }) data: SmsView[];
}
