import { ApiProperty, ApiPropertyOptional } from '../common/api-property';
import { IsOmittable } from '../common/validation';
import { IsBoolean, IsEmail, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { LocationBody, LocationQuery, LostfoundListQuery, TimelineEntryView } from './found-item.dto';
import {
  CLAIM_SOURCES,
  CLAIM_STATUSES,
  HasText,
  IsCalendarDate,
  IsDialablePhone,
  IsPhotoUrl,
  LOSTFOUND_PAGE_SIZE,
  MAX_DESCRIPTION,
  MAX_IMAGE_URL,
  MAX_SHORT_TEXT,
  QueryInt,
  type ClaimSource,
  type ClaimStatus,
} from './lostfound-validation';
import { VALUE_CLASSES, type ValueClass } from './lostfound.events';

/** `POST /lostfound/claims` body (spec part 4). */
export class ClaimCreate extends LocationBody {
  @ApiProperty({ maxLength: MAX_SHORT_TEXT, example: 'Jane Smith' })
  @IsString()
  @HasText()
  @MaxLength(MAX_SHORT_TEXT)
  claimant_name: string;

  @ApiProperty({
    example: '+14155550123',
    description:
      'E.164, or a US number in any common form; stored and answered in E.164. Texted when a matching item is logged.',
  })
  @IsString()
  @IsDialablePhone()
  claimant_phone: string;

  @ApiPropertyOptional({ format: 'email', maxLength: MAX_SHORT_TEXT })
  @IsOmittable()
  @IsString()
  @MaxLength(MAX_SHORT_TEXT)
  @IsEmail({}, { message: 'claimant_email must be an email address' })
  claimant_email?: string;

  @ApiPropertyOptional({
    maxLength: MAX_SHORT_TEXT,
    example: 'umbrella',
    description:
      'Stored and answered as sent, normalised for case and spacing; child, person and medication (and their synonyms) are refused with 422 urgent_category. Default: the vocabulary\'s name for the first thing the description names (`Black iPhone 13` is `phone`), else "other".',
  })
  @IsOmittable()
  @IsString()
  @MaxLength(MAX_SHORT_TEXT)
  category?: string;

  @ApiPropertyOptional({ maxLength: MAX_DESCRIPTION })
  @IsOmittable()
  @IsString()
  @MaxLength(MAX_DESCRIPTION)
  description?: string;

  @ApiPropertyOptional({ maxLength: MAX_SHORT_TEXT })
  @IsOmittable()
  @IsString()
  @MaxLength(MAX_SHORT_TEXT)
  color?: string;

  @ApiPropertyOptional({ maxLength: MAX_SHORT_TEXT })
  @IsOmittable()
  @IsString()
  @MaxLength(MAX_SHORT_TEXT)
  lost_area?: string;

  @ApiPropertyOptional({ format: 'date', description: 'YYYY-MM-DD.' })
  @IsOmittable()
  @IsCalendarDate()
  lost_date?: string;

  @ApiPropertyOptional({
    maxLength: MAX_DESCRIPTION,
    description: 'What the claimant can show or tell to prove ownership. Never sent in events or texts.',
  })
  @IsOmittable()
  @IsString()
  @MaxLength(MAX_DESCRIPTION)
  proof_note?: string;

  @ApiPropertyOptional({
    maxLength: MAX_IMAGE_URL,
    description:
      'An https:// or http:// URL (any other scheme is refused with 400), stored as given; becomes the primary photo. ' +
      'Empty: no photo.',
  })
  @IsOmittable()
  @IsString()
  @MaxLength(MAX_IMAGE_URL)
  @IsPhotoUrl({ orEmpty: true })
  image_url?: string;
}

export class FileClaimCommand extends ClaimCreate {}

/** A candidate item shown to a low-value claim (operator contract). Never built for high-value claims. */
export class ClaimMatchView {
  @ApiProperty({ type: 'integer' }) found_item_id: number;
  @ApiProperty() description: string;
  @ApiProperty() color: string;
  @ApiProperty() found_area: string;
  @ApiProperty({ format: 'date' }) found_date: string;
}

export class ClaimView {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ type: 'integer' }) location_id: number;
  @ApiProperty() claimant_name: string;
  @ApiProperty({ example: '+14155550123' }) claimant_phone: string;
  @ApiProperty({ example: 'umbrella' }) category: string;
  @ApiProperty({ description: 'Empty string when none.' }) description: string;
  @ApiProperty({ description: 'Empty string when none.' }) color: string;
  @ApiProperty({ description: 'Empty string when none.' }) lost_area: string;
  @ApiProperty({ type: String, format: 'date', nullable: true }) lost_date: string | null;
  @ApiProperty({ description: 'Stored as given. Empty string when none.' }) image_url: string;
  @ApiProperty({ enum: CLAIM_STATUSES }) status: ClaimStatus;
  @ApiProperty({
    enum: CLAIM_SOURCES,
    example: 'api',
    description: "Added field: api, web (the claimant page) or phone (taken by a number's agent).",
  })
  source: ClaimSource;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ description: 'Whether a stored item of the location matches the claim.' }) has_match: boolean;
  @ApiPropertyOptional({
    description: 'Present, and true, for high-value categories: the item is released only with verified: true.',
  })
  verify_required?: true;
}

/** The creation answer: a low-value claim lists its candidates in `matches`; a high-value one never has it. */
export class ClaimCreated extends ClaimView {
  @ApiPropertyOptional({ type: [ClaimMatchView], description: 'Low-value claims only: candidate items, best first.' })
  matches?: ClaimMatchView[];
}

/** A text sent to the claimant about this claim (added field). */
export class ClaimTextView {
  @ApiProperty({ description: 'The text as sent.' }) body: string;
  @ApiProperty({ description: 'When the SMS provider took the text (ISO 8601).' }) sent_at: string;
}

export class ClaimDetail extends ClaimCreated {
  @ApiProperty({ description: 'Empty string when none.' }) claimant_email: string;
  @ApiProperty({
    description: 'What the claimant offered as proof, for the staff who verify it. Empty string when none.',
  })
  proof_note: string;
  @ApiProperty({ type: [String], description: 'Photo URLs, primary first.' }) photos: string[];
  @ApiProperty({ type: [TimelineEntryView], description: 'Oldest first.' }) timeline: TimelineEntryView[];
  @ApiProperty({
    type: [ClaimTextView],
    description: 'Added field: the texts sent to the claimant about this claim, oldest first. Never in events.',
  })
  texts: ClaimTextView[];
}

/**
 * A stored item a claim matched, as the console's desk shows it to staff (docs/adr/0053): every item that makes the
 * claim's `has_match` true, high-value ones included, with where it is kept. Never on `/v1`, where a high-value
 * claim's answer names no item.
 */
export class ClaimCandidateView {
  @ApiProperty({ type: 'integer' }) found_item_id: number;
  @ApiProperty() category: string;
  @ApiProperty() description: string;
  @ApiProperty() color: string;
  @ApiProperty() found_area: string;
  @ApiProperty({ example: '2026-11-20', description: '`YYYY-MM-DD`.' }) found_date: string;
  @ApiProperty() storage_ref: string;
  @ApiProperty({
    enum: VALUE_CLASSES,
    description: 'Released only with `verified: true` when `high` or `urgent` (ADR 0053).',
  })
  value_class: ValueClass;
}

/** `GET /console/api/lostfound/claims/{id}/candidates`: best first; `total` counts them all when more are stored. */
export class ClaimCandidateList {
  @ApiProperty({ type: [ClaimCandidateView], description: 'Best first, at most 50.' }) data: ClaimCandidateView[];
  @ApiProperty() total: number;
}

export class ClaimPage {
  @ApiProperty({ type: [ClaimView] }) data: ClaimView[];
  @ApiProperty() total: number;
  @ApiProperty() page: number;
  @ApiProperty({ description: 'ceil(total / per); 0 when nothing matches.' }) pages: number;
  @ApiProperty({ example: LOSTFOUND_PAGE_SIZE }) per: number;
}

export class ListClaimsQuery extends LostfoundListQuery {
  @ApiPropertyOptional({ enum: CLAIM_STATUSES })
  @IsOmittable()
  @IsIn(CLAIM_STATUSES)
  status?: ClaimStatus;
}

export class GetClaimQuery extends LocationQuery {
  @QueryInt()
  @IsInt({ message: 'id must be an integer' })
  @Min(-Number.MAX_SAFE_INTEGER)
  @Max(Number.MAX_SAFE_INTEGER)
  id: number;
}

/** `POST /lostfound/claims/{id}/reunite` body (spec part 4). */
export class ReuniteBody extends LocationBody {
  @ApiProperty({ type: 'integer', description: 'Item to release to the claim.' })
  @IsInt()
  @Min(-Number.MAX_SAFE_INTEGER)
  @Max(Number.MAX_SAFE_INTEGER)
  found_item_id: number;

  @ApiPropertyOptional({
    default: false,
    description: 'Staff confirmed proof of ownership; required true for high-value categories.',
  })
  @IsOmittable()
  @IsBoolean()
  verified?: boolean;
}

export class ReuniteCommand extends ReuniteBody {
  @IsInt()
  @Min(-Number.MAX_SAFE_INTEGER)
  @Max(Number.MAX_SAFE_INTEGER)
  id: number;

  /**
   * Who acted, for the timeline: set by the gateway's console routes to the signed-in user (docs/adr/0080). Not
   * in the /v1 body, which is validated before it is forwarded: through the API it is absent and the timeline says API.
   */
  @IsOptional()
  @IsString()
  @MaxLength(MAX_SHORT_TEXT)
  acted_by?: string;
}

export class Reunited {
  @ApiProperty() reunited: boolean;
  @ApiProperty({ type: 'integer' }) claim_id: number;
  @ApiProperty({ type: 'integer' }) found_item_id: number;
  @ApiProperty() verified: boolean;
}
