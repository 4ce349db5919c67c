import { ApiProperty, ApiPropertyOptional } from '../common/api-property';
import { IsOmittable } from '../common/validation';
import { IsEmail, IsString, MaxLength } from 'class-validator';
import { HasText, IsCalendarDate, IsDialablePhone, MAX_DESCRIPTION, MAX_SHORT_TEXT } from './lostfound-validation';

/**
 * The claimant page's backend (docs/adr/0079-lostfound-custody-claimant-page-and-phone-reports.md): public, no sign-in, a location named
 * by its unguessable `public_slug`. What it answers says nothing about the venue but its name and nothing about
 * its items.
 */
export const PUBLIC_SLUG_PATTERN = /^[A-Za-z0-9_-]{22,64}$/;

export class ClaimantSlugQuery {
  @IsString()
  @MaxLength(64)
  slug: string;
}

export class ClaimantLocationView {
  @ApiProperty({ example: 'Central Station' }) name: string;
  @ApiProperty({
    type: [String],
    example: ['bag', 'wallet', 'phone', 'umbrella'],
    description: 'Categories a claim may name (any other word is taken too, as "other").',
  })
  categories: string[];
}

/** `POST /claim/api/locations/{slug}/claims` body: what a person can tell about what they lost. */
export class ClaimantClaimBody {
  @ApiProperty({ maxLength: MAX_SHORT_TEXT, example: 'Jane Smith' })
  @IsString()
  @HasText()
  @MaxLength(MAX_SHORT_TEXT)
  claimant_name: string;

  @ApiProperty({ example: '+14155550123', description: 'Texted when a matching item is logged.' })
  @IsString()
  @IsDialablePhone()
  claimant_phone: string;

  @ApiPropertyOptional({ format: 'email', maxLength: MAX_SHORT_TEXT })
  @IsOmittable()
  @IsString()
  @MaxLength(MAX_SHORT_TEXT)
  @IsEmail({}, { message: 'claimant_email must be an email address' })
  claimant_email?: string;

  @ApiProperty({ maxLength: MAX_DESCRIPTION, example: 'Black umbrella with a wooden handle' })
  @IsString()
  @HasText()
  @MaxLength(MAX_DESCRIPTION)
  description: string;

  @ApiPropertyOptional({ maxLength: MAX_SHORT_TEXT, example: 'umbrella' })
  @IsOmittable()
  @IsString()
  @MaxLength(MAX_SHORT_TEXT)
  category?: string;

  @ApiPropertyOptional({ maxLength: MAX_SHORT_TEXT })
  @IsOmittable()
  @IsString()
  @MaxLength(MAX_SHORT_TEXT)
  color?: string;

  @ApiPropertyOptional({ maxLength: MAX_SHORT_TEXT, description: 'Where it was lost.' })
  @IsOmittable()
  @IsString()
  @MaxLength(MAX_SHORT_TEXT)
  lost_area?: string;

  @ApiPropertyOptional({ format: 'date', description: 'When it was lost, YYYY-MM-DD.' })
  @IsOmittable()
  @IsCalendarDate()
  lost_date?: string;
}

export class ClaimantFileCommand extends ClaimantClaimBody {
  @IsString()
  @MaxLength(64)
  slug: string;
}

/** The answer to a claimant: never an item, never whether one matches. */
export class ClaimantClaimFiled {
  @ApiProperty({ example: true }) received: true;
  @ApiProperty({ example: 'web' }) source: 'web';
  @ApiProperty({ example: 'Thank you: your claim is filed. We will text you if a matching item is handed in.' })
  message: string;
}
