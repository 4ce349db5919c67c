import { ApiProperty, ApiPropertyOptional } from '../common/api-property';
import { IsOmittable } from '../common/validation';
import { ArrayMaxSize, IsArray, IsIn, IsString, MaxLength } from 'class-validator';
import { API_KEY_MODES, type ApiKeyMode } from '../accounts/account-mode';

/** `POST /admin/accounts/{account_id}/api-keys` body. */
export class CreateApiKeyBody {
  @ApiPropertyOptional({
    type: [String],
    example: ['203.0.113.7', '2001:db8::/32'],
    description: 'IPv4/IPv6 addresses or CIDR ranges. Empty or absent: any address.',
  })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  ip_allowlist?: string[];

  @ApiPropertyOptional({
    enum: API_KEY_MODES,
    default: 'live',
    description:
      'A `test` key (`sk_test_...`) runs against the simulated providers and sees only test data (`livemode: false`); ' +
      'at most 5 active keys of each mode.',
  })
  @IsOmittable()
  @IsIn(API_KEY_MODES, { message: 'mode must be "live" or "test"' })
  mode?: ApiKeyMode;
}

export class ApiKeyCreated {
  @ApiProperty({ example: 'key_5f0c2a9b1d3e4f5a6b7c8d9e' }) id: string;
  @ApiProperty({ description: 'The secret. Shown only in this answer.' }) key: string;
  @ApiProperty({ type: [String] }) ip_allowlist: string[];
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ enum: API_KEY_MODES }) mode: ApiKeyMode;
}

export class ApiKeyRevoked {
  @ApiProperty({ example: true }) revoked: true;
}

export const MAX_ACTIVE_API_KEYS = 5;
