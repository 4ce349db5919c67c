import { ApiProperty, ApiPropertyOptional } from '../common/api-property';
import { IsOmittable } from '../common/validation';
import { IsISO8601, IsString, Matches, MaxLength } from 'class-validator';
import { CursorPageQuery } from '../common/pagination';

/** The longest call id accepted (Fastify refuses longer path parameters anyway): any shorter unknown id is 404. */
export const MAX_CALL_ID_LENGTH = 200;

/** `GET /calls` query: cursor pagination plus filters; the answer keeps `data` as the spec shows it. */
export class ListCallsQuery extends CursorPageQuery {
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
}

export class CallList {
  @ApiProperty({ type: [CallView], description: "The account's calls across all its numbers, newest first." })
  data: CallView[];
  @ApiProperty({ description: 'True when more calls follow; pass the last id as starting_after.' })
  has_more: boolean;
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
