import type { Provider, Type } from '@nestjs/common';
import { WebhookDeliveriesAdminController } from './webhook-deliveries.admin.controller';

/** What the webhooks feature adds to the gateway's public and operator servers. */
export const WEBHOOKS_PUBLIC_CONTROLLERS: Type[] = [];
export const WEBHOOKS_ADMIN_CONTROLLERS: Type[] = [WebhookDeliveriesAdminController];
export const WEBHOOKS_PROVIDERS: Provider[] = [];
