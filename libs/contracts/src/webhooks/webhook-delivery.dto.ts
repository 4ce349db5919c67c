import { ApiProperty, ApiPropertyOptional } from '../common/api-property';
import { IsOmittable } from '../common/validation';
import { Type } from 'class-transformer';
import { IsInt, IsString, Matches, Max, Min } from 'class-validator';

export const DEFAULT_DELIVERY_LOG_LIMIT = 100;
const MAX_DELIVERY_LOG_LIMIT = 1000;

/** `GET /admin/webhook-deliveries?number_id=num_N` (operator contract); `N` alone is accepted too. */
export class ListWebhookDeliveriesQuery {
  @ApiProperty({ example: 'num_1', description: 'The number whose webhook attempts to list (num_<n> or <n>).' })
  @IsString()
  @Matches(/^(num_)?[1-9]\d{0,17}$/, { message: 'number_id must be a number id (num_<n> or <n>)' })
  number_id: string;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_DELIVERY_LOG_LIMIT, default: DEFAULT_DELIVERY_LOG_LIMIT })
  @IsOmittable()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_DELIVERY_LOG_LIMIT)
  limit?: number;
}

/** One attempt to POST an event to a number's webhook. */
export class WebhookDeliveryAttemptView {
  @ApiProperty({ description: 'The event id, also sent as X-Switchboard-Event-Id.' }) event_id: string;
  @ApiProperty({ example: 'call.completed', description: "The event's `type`: `call.completed`, `webhook.test`, ..." })
  event_type: string;
  @ApiProperty({ description: 'The call the event is about; empty for events not about a call (e.g. `webhook.test`).' })
  call_sid: string;
  @ApiProperty({ format: 'uri' }) url: string;
  @ApiProperty({ minimum: 1, description: '1 for the first attempt of an event.' }) attempt: number;
  @ApiProperty({
    nullable: true,
    type: Number,
    description: "The receiver's HTTP status; null when it did not answer.",
  })
  status_code: number | null;
  @ApiProperty({ nullable: true, type: String, description: 'Why the attempt failed; null when it succeeded.' })
  error: string | null;
  @ApiProperty({ format: 'date-time', description: 'When the attempt was sent.' }) delivered_at: string;
}

export class WebhookDeliveryList {
  @ApiProperty({ type: [WebhookDeliveryAttemptView], description: 'Newest first.' }) data: WebhookDeliveryAttemptView[];
}
