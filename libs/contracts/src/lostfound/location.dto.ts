import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { ACCOUNT_ID_PATTERN, MAX_NAME_LENGTH } from '../common/validation';
import { defineRpc } from '../messaging/rpc';

/** `POST /admin/accounts/{account_id}/locations` body. */
export class CreateLocationBody {
  @ApiProperty({ maxLength: MAX_NAME_LENGTH })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_NAME_LENGTH)
  name: string;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  lostfound_enabled?: boolean;
}

export class CreateLocationCommand extends CreateLocationBody {
  @IsString()
  @Matches(ACCOUNT_ID_PATTERN)
  account_id: string;
}

export class LocationView {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty() lostfound_enabled: boolean;
}

/** Locations belong to lostfound, which checks `location_id` on every lost-and-found request. */
export const LocationsRpc = {
  create: defineRpc<CreateLocationCommand, LocationView>('lostfound.v1.locations.create', CreateLocationCommand),
} as const;
