import { Type } from 'class-transformer';
import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { MAX_CALL_ID_LENGTH } from './call.dto';

/**
 * The most bytes one `calls.v1.recording.read` reply carries. Base64 makes it ~350 KB of JSON, well under NATS's
 * 1 MB payload limit; the gateway streams a recording as a sequence of such reads (docs/adr/0121).
 */
export const RECORDING_CHUNK_MAX_BYTES = 256 * 1024;

export class GetRecordingQuery {
  @IsString()
  @MaxLength(MAX_CALL_ID_LENGTH)
  call_id: string;
}

/** What the gateway needs before it streams: size for Content-Length and ranges, etag for caching. */
export interface RecordingInfo {
  call_sid: string;
  content_type: string;
  size: number;
  /** Opaque, without quotes; the gateway answers it as a strong ETag. */
  etag: string;
}

/** One byte range of a recording: `length` bytes from `offset` (fewer only at the end of the file). */
export class ReadRecordingQuery {
  @IsString()
  @MaxLength(MAX_CALL_ID_LENGTH)
  call_id: string;

  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  offset: number;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(RECORDING_CHUNK_MAX_BYTES)
  length: number;
}

export interface RecordingChunk {
  offset: number;
  /** The bytes, base64. */
  data: string;
}
