import { ApiProperty, ApiPropertyOptional } from '../common/api-property';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsObject,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsE164 } from '../common/phone';
import { IsOmittable, MAX_TEXT_LENGTH } from '../common/validation';
import { CALL_SENTIMENTS, MAX_CALL_SUMMARY_LENGTH, type CallSentiment } from './call-analysis';

/** The longest call the simulated provider reports: a day (longer is a mistake, 400). */
const MAX_SIMULATED_CALL_SECONDS = 86_400;
const MAX_TRANSCRIPT_TURNS = 500;
const MAX_TURN_TEXT_LENGTH = MAX_TEXT_LENGTH;
const MAX_CALL_LABEL_LENGTH = 100;
/** `live.turn_interval_ms` bounds and default (operator contract). */
const MIN_TURN_INTERVAL_MS = 10;
const MAX_TURN_INTERVAL_MS = 10_000;
export const DEFAULT_TURN_INTERVAL_MS = 500;

/** `live` on `POST /admin/provider/calls`: the simulated provider plays the call as it happens (docs/live-calls.md). */
export class SimulatedLiveBody {
  @ApiPropertyOptional({
    minimum: MIN_TURN_INTERVAL_MS,
    maximum: MAX_TURN_INTERVAL_MS,
    default: DEFAULT_TURN_INTERVAL_MS,
    description: 'Milliseconds between the start and each transcript turn, and between the last turn and the end.',
  })
  @IsOmittable()
  @IsInt()
  @Min(MIN_TURN_INTERVAL_MS)
  @Max(MAX_TURN_INTERVAL_MS)
  turn_interval_ms?: number;
}

export class TranscriptTurnBody {
  @ApiProperty({ example: 'caller', maxLength: MAX_CALL_LABEL_LENGTH })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_CALL_LABEL_LENGTH)
  role: string;

  @ApiProperty({ example: 'I would like to order a large pizza.', maxLength: MAX_TURN_TEXT_LENGTH })
  @IsString()
  @MaxLength(MAX_TURN_TEXT_LENGTH)
  text: string;
}

const MAX_LOST_ITEM_TEXT = 200;
const MAX_LOST_ITEM_DESCRIPTION = 2000;

/**
 * What the agent gathered on a call that ended with the outcome `lost_item_report` (docs/adr/0079): becomes a claim
 * at the location whose lost-and-found line the number is, with the caller's number as the claimant phone.
 */
export class LostItemBody {
  @ApiProperty({ example: 'umbrella', maxLength: MAX_LOST_ITEM_TEXT })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_LOST_ITEM_TEXT)
  category: string;

  @ApiProperty({ example: 'Black umbrella with a wooden handle', maxLength: MAX_LOST_ITEM_DESCRIPTION })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_LOST_ITEM_DESCRIPTION)
  description: string;

  @ApiPropertyOptional({ example: 'black', maxLength: MAX_LOST_ITEM_TEXT })
  @IsOmittable()
  @IsString()
  @MaxLength(MAX_LOST_ITEM_TEXT)
  color?: string;

  @ApiPropertyOptional({ example: 'Platform 4', maxLength: MAX_LOST_ITEM_TEXT })
  @IsOmittable()
  @IsString()
  @MaxLength(MAX_LOST_ITEM_TEXT)
  where_lost?: string;

  @ApiPropertyOptional({
    example: '2026-11-22',
    description: "YYYY-MM-DD or an ISO 8601 date-time (its UTC day is the claim's lost_date).",
  })
  @IsOmittable()
  @IsISO8601({ strict: true }, { message: 'lost_at must be an ISO 8601 date or date-time' })
  lost_at?: string;

  @ApiPropertyOptional({ example: 'Jane Smith', maxLength: MAX_LOST_ITEM_TEXT })
  @IsOmittable()
  @IsString()
  @MaxLength(MAX_LOST_ITEM_TEXT)
  caller_name?: string;
}

/**
 * What the agent runtime's post-call analysis returned (operator contract). `custom` is checked against the number's
 * declared analysis fields when the call is recorded, as a real runtime's would be: what does not fit is dropped.
 */
export class SimulatedCallAnalysisBody {
  @ApiPropertyOptional({ maxLength: MAX_CALL_SUMMARY_LENGTH, example: 'The caller ordered a large margherita.' })
  @IsOmittable()
  @IsString()
  @MaxLength(MAX_CALL_SUMMARY_LENGTH)
  summary?: string;

  @ApiPropertyOptional({ enum: CALL_SENTIMENTS })
  @IsOmittable()
  @IsIn(CALL_SENTIMENTS)
  sentiment?: CallSentiment;

  @ApiPropertyOptional()
  @IsOmittable()
  @IsBoolean()
  successful?: boolean;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { order_total: 23.5 },
    description: 'Values by field name, as the runtime gave them.',
  })
  @IsOmittable()
  @IsObject()
  custom?: Record<string, unknown>;
}

/**
 * `POST /admin/provider/calls` body: the simulated telephony provider reports a completed call handled by the
 * agent (operator contract). It travels the path a real provider's report takes (docs/adr/0121).
 */
export class SimulateProviderCallBody {
  @ApiProperty({ example: '+14155550100', description: 'The service number that was called (E.164).' })
  @IsE164()
  to: string;

  @ApiProperty({ example: '+14155550199', description: 'The caller (E.164).' })
  @IsE164()
  caller: string;

  @ApiProperty({ minimum: 0, maximum: MAX_SIMULATED_CALL_SECONDS })
  @IsInt()
  @Min(0)
  @Max(MAX_SIMULATED_CALL_SECONDS)
  duration_sec: number;

  @ApiProperty({ example: 'order_placed', maxLength: MAX_CALL_LABEL_LENGTH })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_CALL_LABEL_LENGTH)
  outcome: string;

  @ApiPropertyOptional({ example: 'inbound', default: 'inbound', maxLength: MAX_CALL_LABEL_LENGTH })
  @IsOmittable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_CALL_LABEL_LENGTH)
  direction?: string;

  @ApiPropertyOptional({ example: 'completed', default: 'completed', maxLength: MAX_CALL_LABEL_LENGTH })
  @IsOmittable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_CALL_LABEL_LENGTH)
  status?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'When the call started. Default: the moment of the report less duration_sec.',
  })
  @IsOmittable()
  @IsISO8601({ strict: true }, { message: 'started_at must be an ISO 8601 date-time' })
  started_at?: string;

  @ApiPropertyOptional({ type: [TranscriptTurnBody], maxItems: MAX_TRANSCRIPT_TURNS })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(MAX_TRANSCRIPT_TURNS)
  @ValidateNested({ each: true })
  @Type(() => TranscriptTurnBody)
  transcript?: TranscriptTurnBody[];

  @ApiPropertyOptional({
    default: false,
    description: 'Whether the provider recorded the call (an MP3 of the call length).',
  })
  @IsOmittable()
  @IsBoolean()
  recording?: boolean;

  @ApiPropertyOptional({
    type: LostItemBody,
    description: 'With outcome lost_item_report only: what the agent gathered (docs/adr/0079).',
  })
  @IsOmittable()
  @IsObject()
  @ValidateNested()
  @Type(() => LostItemBody)
  lost_item?: LostItemBody;

  @ApiPropertyOptional({ type: SimulatedCallAnalysisBody, description: "The agent runtime's post-call analysis." })
  @IsOmittable()
  @IsObject()
  @ValidateNested()
  @Type(() => SimulatedCallAnalysisBody)
  analysis?: SimulatedCallAnalysisBody;

  @ApiPropertyOptional({
    type: SimulatedLiveBody,
    description:
      'Play the call live: its start at once, then each transcript turn turn_interval_ms apart, then its end. ' +
      'The answer comes at once.',
  })
  @IsOmittable()
  @IsObject()
  @ValidateNested()
  @Type(() => SimulatedLiveBody)
  live?: SimulatedLiveBody;
}

export class SimulatedCallAccepted {
  @ApiProperty({ example: 'CA0f6c2b0e3d9a4c1b8e7f6a5d4c3b2a19' }) call_sid: string;
}

/**
 * When a simulated call started: `started_at` as sent, else the report's moment less the call's duration (a
 * completed call is reported when it ends), but not before `heldSince`, when the number that holds the phone number
 * now was provisioned: the default start falls within its current tenure, never in a previous holder's
 * (docs/adr/0121-calls-and-recordings.md). The gateway's route and the simulated provider use this
 * one rule.
 */
export function simulatedCallStartedAt(
  body: Pick<SimulateProviderCallBody, 'started_at' | 'duration_sec'>,
  reportedAt: Date,
  heldSince?: string | Date | null,
): Date {
  if (body.started_at !== undefined) return new Date(body.started_at);
  const started = reportedAt.getTime() - body.duration_sec * 1000;
  const tenureStart = heldSince != null ? new Date(heldSince).getTime() : Number.NEGATIVE_INFINITY;
  return new Date(Math.min(reportedAt.getTime(), Math.max(started, tenureStart)));
}
