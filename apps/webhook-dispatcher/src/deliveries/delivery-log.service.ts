import { Inject, Injectable } from '@nestjs/common';
import {
  DEFAULT_DELIVERY_LOG_LIMIT,
  type ListWebhookDeliveriesQuery,
  type WebhookDeliveryList,
} from '@switchboard/contracts';
import { DeliveriesRepository } from './deliveries.repository';
import type { DeliveryStore } from './delivery-store.port';

/** The operator's view of the attempt log: `GET /admin/webhook-deliveries?number_id=num_N`. */
@Injectable()
export class DeliveryLogService {
  constructor(@Inject(DeliveriesRepository) private readonly store: DeliveryStore) {}

  async list(query: ListWebhookDeliveriesQuery): Promise<WebhookDeliveryList> {
    const numberId = query.number_id.startsWith('num_') ? query.number_id : `num_${query.number_id}`;
    const attempts = await this.store.listAttempts(numberId, query.limit ?? DEFAULT_DELIVERY_LOG_LIMIT);
    return {
      data: attempts.map((attempt) => ({
        event_id: attempt.event_id,
        event_type: attempt.event_type,
        call_sid: attempt.call_sid,
        url: attempt.url,
        attempt: attempt.attempt,
        status_code: attempt.status_code,
        error: attempt.error,
        delivered_at: attempt.attempted_at.toISOString(),
      })),
    };
  }
}
