import { ApiProperty, ApiPropertyOptional } from '../common/api-property';
import { IsOmittable } from '../common/validation';
import { Type } from 'class-transformer';
import { IsInt, IsString, Matches, Max, Min } from 'class-validator';

/**
 * A dead letter's id: the durable consumer that gave the message up and the message's sequence in its stream, which
 * together name one message once (`numbers-billing-talk-time.1234`).
 */
export const DEAD_LETTER_ID = /^[a-z0-9][a-z0-9-]{0,99}\.[1-9]\d{0,18}$/;

export const DEFAULT_DEAD_LETTER_LIST_LIMIT = 50;
const MAX_DEAD_LETTER_LIST_LIMIT = 200;

/** `GET /admin/dead-letters` (operator contract): oldest first, a page at a time. */
export class ListDeadLettersQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_DEAD_LETTER_LIST_LIMIT, default: DEFAULT_DEAD_LETTER_LIST_LIMIT })
  @IsOmittable()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_DEAD_LETTER_LIST_LIMIT)
  limit?: number;

  @ApiPropertyOptional({ description: 'The last dead letter id of the previous page.' })
  @IsOmittable()
  @IsString()
  @Matches(DEAD_LETTER_ID, { message: 'starting_after must be a dead letter id (<durable>.<sequence>)' })
  starting_after?: string;
}

/** `/admin/dead-letters/:dead_letter_id`. */
export class DeadLetterIdParam {
  @ApiProperty({ example: 'numbers-billing-talk-time.1234' })
  @IsString()
  @Matches(DEAD_LETTER_ID, { message: 'dead_letter_id must be a dead letter id (<durable>.<sequence>)' })
  dead_letter_id: string;
}

/**
 * A message a durable consumer gave up on: what was published (subject, body, headers with the trace context), who
 * failed it (the durable consumer and its handler), why (the last error) and how often.
 */
export class DeadLetterView {
  @ApiProperty({ example: 'numbers-billing-talk-time.1234', description: '<durable>.<stream sequence>' }) id: string;
  @ApiProperty({ example: 'numbers-billing-talk-time' }) durable: string;
  @ApiProperty({ example: 'TalkTimeConsumer.bill', description: 'The Nest handler (class.method).' }) handler: string;
  @ApiProperty({ example: 'SB_CALLS', description: 'The stream the message was read from.' }) stream: string;
  @ApiProperty({ description: "The message's sequence in that stream." }) stream_seq: number;
  @ApiProperty({ example: 'sb.events.v1.call.completed', description: 'The subject it was published on.' })
  subject: string;
  @ApiProperty({ nullable: true, type: String, description: "The event's own id; null when the body is not an event." })
  event_id: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'call.completed' }) event_type: string | null;
  @ApiProperty({ description: 'The body as published (the event envelope as JSON text).' }) payload: string;
  @ApiProperty({ description: 'The headers as published (traceparent...), each with its values.' })
  headers: Record<string, string[]>;
  @ApiProperty({ description: 'The last failure: the error message, or why the message could not be handled.' })
  error: string;
  @ApiProperty({
    description: 'Deliveries charged to the message: handler failures, and deliveries never answered.',
  })
  attempts: number;
  @ApiProperty({ description: "JetStream's delivery count, outage waits and RetryLater included." })
  deliveries: number;
  @ApiProperty({ format: 'date-time' }) published_at: string;
  @ApiProperty({ format: 'date-time' }) dead_lettered_at: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'When it was replayed; null if not.' })
  replayed_at: string | null;
}

export class DeadLetterList {
  @ApiProperty({ type: [DeadLetterView], description: 'Oldest first.' }) data: DeadLetterView[];
  @ApiProperty({ description: 'More dead letters follow the last one (ask with starting_after).' }) has_more: boolean;
}

/** `POST /admin/dead-letters/:dead_letter_id/replay`: the dead letter, and whether this call republished it. */
export class DeadLetterReplay {
  @ApiProperty({ type: DeadLetterView }) dead_letter: DeadLetterView;
  @ApiProperty({ description: 'false when an earlier replay already republished it (nothing was sent again).' })
  republished: boolean;
}
