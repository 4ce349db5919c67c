import { ApiProperty, ApiPropertyOptional } from '../common/api-property';
import { IsOmittable } from '../common/validation';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import {
  DISPOSAL_OUTCOMES,
  FOUND_ITEM_STATUSES,
  HasText,
  IsCalendarDate,
  IsPhotoUrl,
  LOSTFOUND_PAGE_SIZE,
  MAX_DESCRIPTION,
  MAX_IMAGE_URL,
  MAX_SEARCH_TEXT,
  MAX_SHORT_TEXT,
  QueryInt,
  type DisposalOutcome,
  type FoundItemStatus,
} from './lostfound-validation';

const LOCATION_ID_DOC = 'A location of the account with lost-and-found enabled; otherwise 404 location_not_found.';

/** `location_id` in a JSON body: a JSON integer (`"12"` is refused with 400 invalid_request). */
export class LocationBody {
  @ApiProperty({ example: 1, description: LOCATION_ID_DOC })
  @IsInt()
  @Min(-Number.MAX_SAFE_INTEGER)
  @Max(Number.MAX_SAFE_INTEGER)
  location_id: number;
}

/** `location_id` in a query string: digits only. */
export class LocationQuery {
  @ApiProperty({ example: 1, type: 'integer', description: LOCATION_ID_DOC })
  @QueryInt()
  @IsInt({ message: 'location_id must be an integer' })
  @Min(-Number.MAX_SAFE_INTEGER)
  @Max(Number.MAX_SAFE_INTEGER)
  location_id: number;
}

/** A path id of an item or a claim: an integer. */
export class IntIdParam {
  @ApiProperty({ type: 'integer' })
  @QueryInt()
  @IsInt({ message: 'id must be an integer' })
  @Min(-Number.MAX_SAFE_INTEGER)
  @Max(Number.MAX_SAFE_INTEGER)
  id: number;
}

/** Filters and page shared by the found-item and claim lists (spec part 4). */
export class LostfoundListQuery extends LocationQuery {
  @ApiPropertyOptional({
    description:
      "Category as it was sent, compared case- and space-insensitively (`scarf` lists scarves only; q also searches the category's class, e.g. `clothing`).",
  })
  @IsOmittable()
  @IsString()
  @MaxLength(MAX_SHORT_TEXT)
  category?: string;

  @ApiPropertyOptional({
    description: 'Area, compared case-insensitively with found_area (items) or lost_area (claims).',
  })
  @IsOmittable()
  @IsString()
  @MaxLength(MAX_SHORT_TEXT)
  area?: string;

  @ApiPropertyOptional({
    format: 'date',
    description: 'YYYY-MM-DD, inclusive: found_date (items) or lost_date (claims) on or after it.',
  })
  @IsOmittable()
  @IsCalendarDate()
  from?: string;

  @ApiPropertyOptional({
    format: 'date',
    description: 'YYYY-MM-DD, inclusive: found_date (items) or lost_date (claims) on or before it.',
  })
  @IsOmittable()
  @IsCalendarDate()
  to?: string;

  @ApiPropertyOptional({
    description:
      'Free text, full-text search over description, color, area and category (words are stemmed; each word may be a prefix).',
  })
  @IsOmittable()
  @IsString()
  @MaxLength(MAX_SEARCH_TEXT)
  q?: string;

  @ApiPropertyOptional({
    minimum: 1,
    default: 1,
    description: `Pages hold ${LOSTFOUND_PAGE_SIZE} entries. A page past the last has empty data.`,
  })
  @IsOmittable()
  @QueryInt()
  @IsInt({ message: 'page must be an integer' })
  @Min(1)
  @Max(1_000_000)
  page?: number;
}

/** `POST /lostfound/found-items` body (spec part 4). */
/** How many `photo_urls` a found item takes besides its `image_url`. */
export const MAX_PHOTO_URLS = 10;

export class FoundItemCreate extends LocationBody {
  @ApiProperty({
    maxLength: MAX_DESCRIPTION,
    example: 'Black leather wallet, initials J.S.',
    description: 'Drives matching.',
  })
  @IsString()
  @HasText()
  @MaxLength(MAX_DESCRIPTION)
  description: string;

  @ApiPropertyOptional({
    maxLength: MAX_SHORT_TEXT,
    example: 'wallet',
    description:
      'Stored and answered as sent, normalised for case and spacing; its vocabulary class (docs/adr/0053) drives matching and value rules. Default: the vocabulary\'s name for the first thing the description names (`Black iPhone 13` is `phone`), else "other".',
  })
  @IsOmittable()
  @IsString()
  @MaxLength(MAX_SHORT_TEXT)
  category?: string;

  @ApiPropertyOptional({ maxLength: MAX_SHORT_TEXT, example: 'black' })
  @IsOmittable()
  @IsString()
  @MaxLength(MAX_SHORT_TEXT)
  color?: string;

  @ApiPropertyOptional({ maxLength: MAX_SHORT_TEXT, example: 'Gate B12' })
  @IsOmittable()
  @IsString()
  @MaxLength(MAX_SHORT_TEXT)
  found_area?: string;

  @ApiPropertyOptional({ maxLength: MAX_SHORT_TEXT, example: 'Bin 4', description: 'Bin or shelf.' })
  @IsOmittable()
  @IsString()
  @MaxLength(MAX_SHORT_TEXT)
  storage_ref?: string;

  @ApiPropertyOptional({
    maxLength: MAX_SHORT_TEXT,
    example: 'Maria (cleaning)',
    description: "Finder's name, free text.",
  })
  @IsOmittable()
  @IsString()
  @MaxLength(MAX_SHORT_TEXT)
  found_by?: string;

  @ApiPropertyOptional({ format: 'date', example: '2026-11-20', description: 'YYYY-MM-DD. Default: today in UTC.' })
  @IsOmittable()
  @IsCalendarDate()
  found_date?: string;

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

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_PHOTO_URLS,
    description:
      'Added field: more photo URLs of the item, each checked like image_url (an https:// or http:// URL of at most ' +
      `${MAX_IMAGE_URL} characters) and stored as given, after image_url. At most ${MAX_PHOTO_URLS}.`,
  })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(MAX_PHOTO_URLS)
  @IsString({ each: true })
  @MaxLength(MAX_IMAGE_URL, { each: true })
  @IsPhotoUrl({}, { each: true })
  photo_urls?: string[];

  @ApiPropertyOptional({
    default: true,
    description:
      'Text the claimants of matching open claims (within the daily limits, docs/adr/0053). false logs the item and ' +
      'records its matches without texting anyone: the way to log an item after 429 text_limit.',
  })
  @IsOmittable()
  @IsBoolean()
  text_claimants?: boolean;
}

export class LogFoundItemCommand extends FoundItemCreate {
  /**
   * Who acted, for the timeline: set by the gateway's console routes to the signed-in user (docs/adr/0080). Not
   * in the /v1 body, which is validated before it is forwarded: through the API it is absent and the timeline says API.
   */
  @IsOptional()
  @IsString()
  @MaxLength(MAX_SHORT_TEXT)
  acted_by?: string;
}

export class FoundItemView {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ type: 'integer' }) location_id: number;
  @ApiProperty({ example: 'wallet' }) category: string;
  @ApiProperty() description: string;
  @ApiProperty({ description: 'Empty string when none.' }) color: string;
  @ApiProperty({ description: 'Empty string when none.' }) found_by: string;
  @ApiProperty({ description: 'Empty string when none.' }) found_area: string;
  @ApiProperty({ format: 'date' }) found_date: string;
  @ApiProperty({ description: 'Empty string when none.' }) storage_ref: string;
  @ApiProperty({ description: 'Stored as given. Empty string when none.' }) image_url: string;
  @ApiProperty({ enum: FOUND_ITEM_STATUSES }) status: FoundItemStatus;
  @ApiProperty({ example: 'api' }) source: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class TimelineEntryView {
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({
    example: 'logged',
    description: 'Items: logged, released, donated, disposed. Claims: filed, reunited.',
  })
  action: string;
  @ApiProperty({ example: 'API' }) staff_name: string;
  @ApiProperty() note: string;
}

export class FoundItemDetail extends FoundItemView {
  @ApiProperty({ type: [String], description: 'Photo URLs, primary first.' }) photos: string[];
  @ApiProperty({ type: [TimelineEntryView], description: 'Chain of custody, oldest first.' })
  timeline: TimelineEntryView[];
  @ApiPropertyOptional({
    format: 'date',
    description:
      "Added field: the first day the item may be donated or disposed of (found_date + the location's hold_days). Present while the item is stored.",
  })
  hold_until?: string;
}

/** `POST /lostfound/found-items/{id}/disposal` body (API extension, docs/adr/0079). */
export class DisposalBody extends LocationBody {
  @ApiProperty({
    enum: DISPOSAL_OUTCOMES,
    description: 'donated (given to charity) or disposed (destroyed or discarded).',
  })
  @IsIn(DISPOSAL_OUTCOMES, { message: `outcome must be one of: ${DISPOSAL_OUTCOMES.join(', ')}` })
  outcome: DisposalOutcome;

  @ApiPropertyOptional({ maxLength: MAX_DESCRIPTION, example: 'Given to the Red Cross shop, receipt 1234.' })
  @IsOmittable()
  @IsString()
  @MaxLength(MAX_DESCRIPTION)
  note?: string;

  @ApiPropertyOptional({
    maxLength: MAX_SHORT_TEXT,
    default: 'API',
    description: 'Who moved the item, for the custody timeline.',
  })
  @IsOmittable()
  @IsString()
  @HasText()
  @MaxLength(MAX_SHORT_TEXT)
  staff_name?: string;
}

export class DisposalCommand extends DisposalBody {
  @IsInt()
  @Min(-Number.MAX_SAFE_INTEGER)
  @Max(Number.MAX_SAFE_INTEGER)
  id: number;
}

export class FoundItemPage {
  @ApiProperty({ type: [FoundItemView] }) data: FoundItemView[];
  @ApiProperty({
    description:
      'Items matching, counted up to 1,000 (docs/adr/0053): when more match, `total` is 1,000, `total_exact` is false ' +
      'and the pages reach the first 1,000 (with `q`: the 1,000 most recent matches, best match first). Narrow the ' +
      'search to see the rest.',
  })
  total: number;
  @ApiProperty({ description: 'false when more items match than `total` says (it is then the bound, 1,000).' })
  total_exact: boolean;
  @ApiProperty() page: number;
  @ApiProperty({ description: 'ceil(total / per); 0 when nothing matches.' }) pages: number;
  @ApiProperty({ example: LOSTFOUND_PAGE_SIZE }) per: number;
}

export class ListFoundItemsQuery extends LostfoundListQuery {
  @ApiPropertyOptional({ enum: FOUND_ITEM_STATUSES })
  @IsOmittable()
  @IsIn(FOUND_ITEM_STATUSES)
  status?: FoundItemStatus;
}

export class GetFoundItemQuery extends LocationQuery {
  @QueryInt()
  @IsInt({ message: 'id must be an integer' })
  @Min(-Number.MAX_SAFE_INTEGER)
  @Max(Number.MAX_SAFE_INTEGER)
  id: number;
}
