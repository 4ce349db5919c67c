import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  registerDecorator,
  type ValidationOptions,
} from 'class-validator';
import { isSupportedCountry } from 'libphonenumber-js/max';
import { ACCOUNT_ID_PATTERN, MAX_NAME_LENGTH } from '../common/validation';
import { defineRpc } from '../messaging/rpc';

/**
 * Where claimants may be texted unless a location says otherwise: the United States and Canada
 * (docs/adr/0053-lostfound-texting-limits.md). A claimant phone of another country is filed but never texted.
 */
export const DEFAULT_SMS_COUNTRIES: readonly string[] = ['US', 'CA'];

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

  @ApiPropertyOptional({
    type: [String],
    example: ['US', 'CA', 'MX'],
    default: DEFAULT_SMS_COUNTRIES,
    description:
      'Countries (ISO 3166 alpha-2, any case) whose phone numbers claimants at this location may be texted at. ' +
      'Default US and CA; an empty list texts no one.',
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    Array.isArray(value) ? value.map((code) => (typeof code === 'string' ? code.toUpperCase() : code)) : value,
  )
  @IsArray()
  @ArrayMaxSize(250)
  @Matches(/^[A-Z]{2}$/, { each: true, message: 'sms_countries must hold two-letter country codes (ISO 3166 alpha-2)' })
  @IsTextingCountry({ each: true })
  sms_countries?: string[];
}

function IsTextingCountry(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isTextingCountry',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `${String(propertyName)} holds a country with no phone numbering plan known here`, ...options },
      validator: { validate: (value: unknown) => typeof value === 'string' && isSupportedCountry(value) },
    });
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
  @ApiProperty({ type: [String], example: ['US', 'CA'], description: 'Countries whose claimant phones may be texted.' })
  sms_countries: string[];
}

/** Locations belong to lostfound, which checks `location_id` on every lost-and-found request. */
export const LocationsRpc = {
  create: defineRpc<CreateLocationCommand, LocationView>('lostfound.v1.locations.create', CreateLocationCommand),
} as const;
