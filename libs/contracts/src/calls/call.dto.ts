import { ApiProperty, ApiPropertyOptional } from '../common/api-property';
import { IsOmittable, MAX_INT4 } from '../common/validation';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsISO8601, IsNotEmpty, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { PageLimit, StartingAfter } from '../common/pagination';
import { CALL_SENTIMENTS, CallAnalysisView, type CallSentiment } from './call-analysis';
import { CallDataDeletion } from './call-data-deletion.dto';

/** At most this many outcomes in one `outcome` filter. */
export const MAX_OUTCOME_FILTERS = 20;
/** The longest `q`. */
export const MAX_CALL_SEARCH_LENGTH = 200;
/** `include_total` counts at most this many calls: past it, `total_count` says so and stops (docs/call-search.md). */
export const MAX_TOTAL_COUNT = 10_000;
const LABEL_FILTER_LENGTH = 100;
/** Outcome words (letters, digits and `_ . : -`), one or up to MAX_OUTCOME_FILTERS separated by commas. */
const OUTCOME_WORD = `[\\w.:-]{1,${LABEL_FILTER_LENGTH}}`;
const OUTCOME_FILTER_PATTERN = new RegExp(`^${OUTCOME_WORD}(,${OUTCOME_WORD}){0,${MAX_OUTCOME_FILTERS - 1}}$`);

/** A query-string flag: `true` or `false`, anything else refused by `@IsBoolean` with the parameter's name. */
export function QueryFlag(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value));
}

/** The longest call id accepted (Fastify refuses longer path parameters anyway): any shorter unknown id is 404. */
export const MAX_CALL_ID_LENGTH = 200;

/** The filters of the calls list, which the export takes too (docs/call-search.md). */
export class CallFilterQuery {
  @ApiPropertyOptional({ example: 'num_1', description: 'Only calls taken by this number (`num_<n>` or `<n>`).' })
  @IsOmittable()
  @IsString()
  @Matches(/^(num_)?[1-9]\d{0,17}$/, { message: 'number_id must be a number id (num_<n> or <n>)' })
  number_id?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only calls that started at or after this instant.' })
  @IsOmittable()
  @IsISO8601({ strict: true }, { message: 'since must be an ISO 8601 date-time' })
  since?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only calls that started before this instant.' })
  @IsOmittable()
  @IsISO8601({ strict: true }, { message: 'until must be an ISO 8601 date-time' })
  until?: string;

  @ApiPropertyOptional({
    example: 'order_placed,transferred',
    description: `Only calls with this outcome, or any of up to ${MAX_OUTCOME_FILTERS} separated by commas.`,
  })
  @IsOmittable()
  @IsString()
  @Matches(OUTCOME_FILTER_PATTERN, {
    message: `outcome must be an outcome word, or up to ${MAX_OUTCOME_FILTERS} separated by commas`,
  })
  outcome?: string;

  @ApiPropertyOptional({ example: 'inbound', description: 'Only calls in this direction.' })
  @IsOmittable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(LABEL_FILTER_LENGTH)
  direction?: string;

  @ApiPropertyOptional({ example: 'completed', description: 'Only calls with this status.' })
  @IsOmittable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(LABEL_FILTER_LENGTH)
  status?: string;

  @ApiPropertyOptional({
    example: '+14155550199',
    description: 'Only calls from this caller: an E.164 number, exactly, or `anonymous`.',
  })
  @IsOmittable()
  @IsString()
  @Matches(/^(\+[1-9]\d{1,14}|anonymous)$/, {
    message: 'caller must be a phone number in E.164 form (+ and digits) or anonymous',
  })
  caller?: string;

  @ApiPropertyOptional({ minimum: 0, description: 'Only calls that lasted at least this many seconds.' })
  @IsOmittable()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_INT4)
  min_duration?: number;

  @ApiPropertyOptional({ minimum: 0, description: 'Only calls that lasted at most this many seconds.' })
  @IsOmittable()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_INT4)
  max_duration?: number;

  @ApiPropertyOptional({ enum: CALL_SENTIMENTS, description: "Only calls with this caller's sentiment." })
  @IsOmittable()
  @IsIn(CALL_SENTIMENTS)
  sentiment?: CallSentiment;

  @ApiPropertyOptional({
    type: Boolean,
    description: 'true: only calls the agent judged successful; false: only those it judged unsuccessful.',
  })
  @IsOmittable()
  @QueryFlag()
  @IsBoolean({ message: 'successful must be true or false' })
  successful?: boolean;

  @ApiPropertyOptional({ type: Boolean, description: 'Only calls with (true) or without (false) a recording.' })
  @IsOmittable()
  @QueryFlag()
  @IsBoolean({ message: 'has_recording must be true or false' })
  has_recording?: boolean;

  @ApiPropertyOptional({
    maxLength: MAX_CALL_SEARCH_LENGTH,
    example: '"gluten free" -pizza',
    description:
      'Full-text search over the transcript and the summary, in web-search syntax: words (all must match, in any ' +
      'form: "orders" finds "ordered"), "quoted phrases", `or`, and -word to exclude. Each result then carries `match`.',
  })
  @IsOmittable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_CALL_SEARCH_LENGTH)
  q?: string;
}

/** `GET /calls` query: cursor pagination plus the filters; the answer keeps `data` as the spec shows it. */
export class ListCallsQuery extends CallFilterQuery {
  @PageLimit()
  limit?: number;

  @StartingAfter()
  starting_after?: string;

  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description: `true: the answer adds \`total_count\`, the calls matching the filters, counted up to ${MAX_TOTAL_COUNT}.`,
  })
  @IsOmittable()
  @QueryFlag()
  @IsBoolean({ message: 'include_total must be true or false' })
  include_total?: boolean;
}

/** The path parameter of the transcript and recording routes (the `id` of a Call). */
export class CallIdParam {
  @IsString()
  @MaxLength(MAX_CALL_ID_LENGTH)
  call_id: string;
}

/** Spec part 2, Call. */
export class CallView {
  @ApiProperty({
    example: 'CA0f6c2b0e3d9a4c1b8e7f6a5d4c3b2a19',
    description: 'The call SID; used in the transcript and recording paths.',
  })
  id: string;
  @ApiProperty({ example: 'num_1' }) number_id: string;
  @ApiProperty({ example: '+14155550100', description: 'The service number that was called.' }) phone_number: string;
  @ApiProperty({ example: '+14155550199' }) caller: string;
  @ApiProperty({ example: 'inbound' }) direction: string;
  @ApiProperty({ example: 'completed' }) status: string;
  @ApiProperty({ example: 'order_placed' }) outcome: string;
  @ApiProperty({ example: 125 }) duration_sec: number;
  @ApiProperty({ format: 'date-time' }) started_at: string;
  @ApiProperty() has_recording: boolean;
  @ApiProperty() has_transcript: boolean;
  @ApiProperty({ type: CallAnalysisView, description: "The agent's analysis of the call." })
  analysis: CallAnalysisView;
  @ApiProperty({
    type: CallDataDeletion,
    nullable: true,
    description: 'When and by whom the recording was deleted (by request or by retention); null while it is kept.',
  })
  recording_deletion: CallDataDeletion | null;
  @ApiProperty({
    type: CallDataDeletion,
    nullable: true,
    description: 'When and by whom the transcript and summary were deleted; null while they are kept.',
  })
  transcript_deletion: CallDataDeletion | null;
}

/** A call in a list searched with `q`. */
export class CallSearchResult extends CallView {
  @ApiPropertyOptional({
    example: 'Do you have a <mark>gluten</mark>-<mark>free</mark> crust?',
    description:
      'With `q` only: a short passage of the transcript or summary where the search matched, HTML-escaped, the ' +
      'matched words in `<mark>` and `</mark>`.',
  })
  match?: string;
}

export class CallList {
  @ApiProperty({ type: [CallSearchResult], description: "The account's calls across all its numbers, newest first." })
  data: CallSearchResult[];
  @ApiProperty({ description: 'True when more calls follow; pass the last id as starting_after.' })
  has_more: boolean;
  @ApiPropertyOptional({
    maximum: MAX_TOTAL_COUNT,
    description: `With include_total=true: how many calls match the filters (all pages), counted up to ${MAX_TOTAL_COUNT}.`,
  })
  total_count?: number;
  @ApiPropertyOptional({
    description: `With include_total=true: true when more than ${MAX_TOTAL_COUNT} calls match (total_count stops there).`,
  })
  total_count_capped?: boolean;
}

export class TranscriptTurnView {
  @ApiProperty({ example: 'agent' }) role: string;
  @ApiProperty({ example: 'Thanks for calling, how can I help?' }) text: string;
}

/** Spec part 2, Transcript. */
export class TranscriptView {
  @ApiProperty() call_sid: string;
  @ApiProperty({ type: [TranscriptTurnView] }) turns: TranscriptTurnView[];
}

export const CALL_RECORDING_CONTENT_TYPE = 'audio/mpeg';
