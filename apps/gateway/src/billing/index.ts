import type { Provider, Type } from '@nestjs/common';
import { BillingAdminController } from './billing.admin.controller';

/** What the billing feature adds to the gateway's public and operator servers. */
export const BILLING_PUBLIC_CONTROLLERS: Type[] = [];
export const BILLING_ADMIN_CONTROLLERS: Type[] = [BillingAdminController];
export const BILLING_PROVIDERS: Provider[] = [];
