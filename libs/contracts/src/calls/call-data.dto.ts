import { IsIn, IsInt, IsISO8601, IsString, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '../common/api-property';
import { IsOmittable } from '../common/validation';
import { CallFilterQuery, MAX_CALL_ID_LENGTH } from './call.dto';

/**
 * What calls-media keeps of an account's calls (docs/call-data.md): `everything`; `no_pii`, transcripts and summaries
 * with phone numbers, e-mail addresses, card numbers, SSNs and street addresses replaced by `[redacted:<kind>]` and no
 * recording; `metadata_only`, the call row and its analysis flags alone.
 */
export const STORAGE_MODES = ['everything', 'no_pii', 'metadata_only'] as const;
export type StorageMode = (typeof STORAGE_MODES)[number];
export const DEFAULT_STORAGE_MODE: StorageMode = 'everything';
/** Retention periods are whole days in this range; null keeps forever. */
export const MIN_RETENTION_DAYS = 1;
export const MAX_RETENTION_DAYS = 730;

/** `GET /v1/settings/data`: the caller's own account travels in the request's headers; the body is empty. */
export class GetDataSettingsQuery {}

/** `GET /v1/settings/data`: the account's storage mode and retention periods. */
export class DataSettingsView {
  @ApiProperty({ enum: STORAGE_MODES, example: 'everything' }) storage_mode: StorageMode;
  @ApiProperty({
    type: Number,
    nullable: true,
    minimum: MIN_RETENTION_DAYS,
    maximum: MAX_RETENTION_DAYS,
    example: 90,
    description: 'Recordings older than this many days (from the call start) are deleted; null keeps them.',
  })
  recordings_days: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    minimum: MIN_RETENTION_DAYS,
    maximum: MAX_RETENTION_DAYS,
    example: 365,
    description: 'Transcripts and summaries older than this many days are deleted; null keeps them.',
  })
  transcripts_days: number | null;
}

/** A retention period in a PATCH: left out is unchanged, null keeps forever, otherwise whole days in range. */
function RetentionDays(): PropertyDecorator {
  return (target, key) => {
    ValidateIf((_, value) => value !== undefined && value !== null)(target, key);
    IsInt({ message: `${String(key)} must be an integer number of days, or null` })(target, key);
    Min(MIN_RETENTION_DAYS)(target, key);
    Max(MAX_RETENTION_DAYS)(target, key);
  };
}

/** `PATCH /v1/settings/data` body: any of the fields; the answer is the settings as they now are. */
export class UpdateDataSettingsBody {
  @ApiPropertyOptional({ enum: STORAGE_MODES, description: 'Applies to calls recorded from now on.' })
  @IsOmittable()
  @IsIn(STORAGE_MODES)
  storage_mode?: StorageMode;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: MIN_RETENTION_DAYS,
    maximum: MAX_RETENTION_DAYS,
    example: 90,
    description: 'Days to keep recordings; null keeps them. A shorter period applies to older calls on the next sweep.',
  })
  @RetentionDays()
  recordings_days?: number | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: MIN_RETENTION_DAYS,
    maximum: MAX_RETENTION_DAYS,
    example: 365,
    description: 'Days to keep transcripts and summaries; null keeps them.',
  })
  @RetentionDays()
  transcripts_days?: number | null;
}

/**
 * Who deleted a call's recording or transcript: `key:<api key id>`, `user:<console user id>`, or `retention` for the
 * sweeper. Set by the gateway from the authenticated caller, never taken from a client.
 */
export const DELETED_BY_PATTERN = /^(key:[\w-]{1,100}|user:[\w-]{1,100}|retention)$/;

/** `DELETE /v1/calls/{call_id}/recording` and `.../transcript`, as the gateway forwards them. */
export class DeleteCallDataRequest {
  @IsString()
  @MaxLength(MAX_CALL_ID_LENGTH)
  call_id: string;

  @IsString()
  @Matches(DELETED_BY_PATTERN)
  deleted_by: string;
}

/**
 * What a deletion by request did: `object_pending` when the recording left the call but object storage did not
 * confirm its deletion yet (it is retried until it does). The gateway answers 204 without it, 202 with it as the body.
 */
export class CallDataDeletionOutcome {
  @ApiProperty({ description: 'True: deleted from the call; object storage will confirm the deletion shortly.' })
  object_pending: boolean;
}

export const EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** What `include` may add to each exported call. */
export const EXPORT_INCLUDES = ['transcript', 'analysis'] as const;
export type ExportInclude = (typeof EXPORT_INCLUDES)[number];
const INCLUDE_PATTERN = /^(transcript|analysis)(,(transcript|analysis))?$/;

/** `GET /v1/calls/export` query: every filter of the calls list (no page), the format and what to include. */
export class ExportCallsQuery extends CallFilterQuery {
  @ApiProperty({ enum: EXPORT_FORMATS, description: 'csv (text/csv, a header row) or jsonl (application/x-ndjson).' })
  @IsIn(EXPORT_FORMATS, { message: 'format must be csv or jsonl' })
  format: ExportFormat;

  @ApiPropertyOptional({
    example: 'transcript,analysis',
    description: 'Adds to each call its transcript, its analysis, or both (comma-separated).',
  })
  @IsOmittable()
  @IsString()
  @Matches(INCLUDE_PATTERN, { message: 'include must be transcript, analysis or transcript,analysis' })
  include?: string;
}

/** One chunk of an export, as the gateway asks calls-media for them (one keyset statement each). */
export class ExportCallsChunkQuery extends ExportCallsQuery {
  /** Where the previous chunk stopped (its `next`); absent for the first, which also carries the header row. */
  @IsOmittable()
  @IsString()
  @MaxLength(200)
  after?: string;
}

export interface ExportCallsChunk {
  /** Formatted rows (CSV lines or JSON lines), each ending in a line break; the first chunk starts with the header. */
  data: string;
  /** Pass as `after` for the next chunk; null when the export is complete. */
  next: string | null;
}

/** `POST /admin/calls/retention-sweep` body. */
export class RetentionSweepBody {
  @ApiPropertyOptional({ format: 'date-time', description: 'Sweep as if the clock read this. Default: now.' })
  @IsOmittable()
  @IsISO8601({ strict: true }, { message: 'now must be an ISO 8601 date-time' })
  now?: string;
}

export class RetentionSweepResult {
  @ApiProperty({ description: 'Recordings deleted by this sweep.' }) recordings_deleted: number;
  @ApiProperty({ description: 'Transcripts (with their summaries) deleted by this sweep.' })
  transcripts_deleted: number;
}

/** The longest an export chunk's rows may grow before it is sent (NATS's payload limit is 1 MB). */
export const EXPORT_CHUNK_MAX_BYTES = 512 * 1024;
/** The most calls one export chunk reads. */
export const EXPORT_CHUNK_MAX_ROWS = 500;
