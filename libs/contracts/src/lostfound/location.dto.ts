import { ApiProperty, ApiPropertyOptional } from '../common/api-property';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsNotEmpty,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  registerDecorator,
  type ValidationOptions,
} from 'class-validator';
import { isSupportedCountry } from 'libphonenumber-js/max';
import { API_KEY_MODES, type ApiKeyMode } from '../accounts/account-mode';
import { ACCOUNT_ID_PATTERN, IsOmittable, MAX_NAME_LENGTH } from '../common/validation';
import { defineRpc } from '../messaging/rpc';
import { QueryInt } from './lostfound-validation';

/**
 * Where claimants may be texted unless a location says otherwise: the United States and Canada
 * (docs/adr/0053-lostfound-search-matching-and-texts.md). A claimant phone of another country is filed but never texted.
 */
export const DEFAULT_SMS_COUNTRIES: readonly string[] = ['US', 'CA'];

/** How long an unclaimed item is held before disposal, unless the location says otherwise (docs/adr/0079). */
export const DEFAULT_HOLD_DAYS = 60;
export const MIN_HOLD_DAYS = 1;
export const MAX_HOLD_DAYS = 3650;

/** `POST /admin/accounts/{account_id}/locations` body. */
export class CreateLocationBody {
  @ApiProperty({ maxLength: MAX_NAME_LENGTH })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_NAME_LENGTH)
  name: string;

  @ApiPropertyOptional({ default: true })
  @IsOmittable()
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
  @IsOmittable()
  @Transform(({ value }: { value: unknown }) =>
    Array.isArray(value)
      ? (value as unknown[]).map((code) => (typeof code === 'string' ? code.toUpperCase() : code))
      : value,
  )
  @IsArray()
  @ArrayMaxSize(250)
  @Matches(/^[A-Z]{2}$/, { each: true, message: 'sms_countries must hold two-letter country codes (ISO 3166 alpha-2)' })
  @IsTextingCountry({ each: true })
  sms_countries?: string[];

  @ApiPropertyOptional({
    minimum: MIN_HOLD_DAYS,
    maximum: MAX_HOLD_DAYS,
    default: DEFAULT_HOLD_DAYS,
    description: 'Days an unclaimed found item is held before it may be donated or disposed of (docs/adr/0079).',
  })
  @IsOmittable()
  @IsInt({ message: 'hold_days must be an integer' })
  @Min(MIN_HOLD_DAYS)
  @Max(MAX_HOLD_DAYS)
  hold_days?: number;
}

function IsTextingCountry(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isTextingCountry',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: `${String(propertyName)} holds a country with no phone numbering plan known here`,
        ...options,
      },
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
  @ApiProperty({
    example: DEFAULT_HOLD_DAYS,
    description: 'Days an unclaimed item is held before it may be donated or disposed of.',
  })
  hold_days: number;
  @ApiProperty({
    example: 'q3J8yF0sVbQ1mZ2xT7kR4w',
    description:
      "The claimant page's address part (`/claim/api/locations/{public_slug}`): 128 random bits, URL-safe. Answers 404 while lostfound_enabled is false.",
  })
  public_slug: string;
}

/**
 * `PATCH /admin/accounts/{account_id}/locations/{location_id}` body: any of the fields. `null` is no value for
 * either (400), not "unchanged".
 */
export class UpdateLocationBody {
  @ApiPropertyOptional()
  @ValidateIf((_, value) => value !== undefined)
  @IsBoolean()
  lostfound_enabled?: boolean;

  @ApiPropertyOptional({ minimum: MIN_HOLD_DAYS, maximum: MAX_HOLD_DAYS })
  @ValidateIf((_, value) => value !== undefined)
  @IsInt({ message: 'hold_days must be an integer' })
  @Min(MIN_HOLD_DAYS)
  @Max(MAX_HOLD_DAYS)
  hold_days?: number;
}

/** A location of an account, named in an operator path. */
export class LocationOfAccount {
  @IsString()
  @Matches(ACCOUNT_ID_PATTERN)
  account_id: string;

  @QueryInt()
  @IsInt({ message: 'location_id must be an integer' })
  @Min(-Number.MAX_SAFE_INTEGER)
  @Max(Number.MAX_SAFE_INTEGER)
  location_id: number;
}

export class UpdateLocationCommand extends UpdateLocationBody {
  @IsString()
  @Matches(ACCOUNT_ID_PATTERN)
  account_id: string;

  @IsInt()
  @Min(-Number.MAX_SAFE_INTEGER)
  @Max(Number.MAX_SAFE_INTEGER)
  location_id: number;
}

/** Account-scoped (the `sb-account-id` header): the account's locations that run lost-and-found. */
export class ListAccountLocationsQuery {}

/** A location as the staff desk sees it (`GET /console/api/lostfound/locations`). */
export class DeskLocationView {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ example: 'Union Station' }) name: string;
  @ApiProperty({ example: DEFAULT_HOLD_DAYS }) hold_days: number;
  @ApiProperty({ description: 'The claimant page is `/console/claim/{public_slug}`.' }) public_slug: string;
}

export class DeskLocationList {
  @ApiProperty({ type: [DeskLocationView], description: 'By name.' }) data: DeskLocationView[];
  @ApiProperty({
    type: [String],
    description: "The vocabulary's categories, urgent ones left out: the desk's suggestions.",
  })
  categories: string[];
}

/**
 * `GET /console/api/lostfound/locations`: the desk's list for the session's account, which is the test twin while the
 * session shows test data (docs/adr/0087). Locations are per account and the twin has none of the live account's,
 * so the desk names the account it shows and, in test mode, how many the live account has.
 */
export class ConsoleDeskLocationList extends DeskLocationList {
  @ApiProperty({ description: 'The account whose locations these are: `acct_test_...` in test mode.' })
  account_id: string;
  @ApiProperty({ enum: API_KEY_MODES }) mode: ApiKeyMode;
  @ApiPropertyOptional({
    description: "Test mode only: how many lost-and-found locations the live account has (none of them the twin's).",
  })
  live_locations?: number;
}

/** Locations belong to lostfound, which checks `location_id` on every lost-and-found request. */
export const LocationsRpc = {
  /** The account's locations with lost-and-found enabled, for the console's desk (docs/adr/0080). */
  listForAccount: defineRpc<ListAccountLocationsQuery, DeskLocationList>(
    'lostfound.v1.locations.list-for-account',
    ListAccountLocationsQuery,
  ),
  create: defineRpc<CreateLocationCommand, LocationView>('lostfound.v1.locations.create', CreateLocationCommand),
  /** Operator: change lost_found_enabled or hold_days; 404 not_found for another account's location. */
  update: defineRpc<UpdateLocationCommand, LocationView>('lostfound.v1.locations.update', UpdateLocationCommand),
  /** Operator: a new claimant-page slug; the old one answers 404 at once. */
  rotateSlug: defineRpc<LocationOfAccount, LocationView>('lostfound.v1.locations.rotate-slug', LocationOfAccount),
} as const;
