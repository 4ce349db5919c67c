import type { Provider, Type } from '@nestjs/common';

/** What the billing feature adds to the gateway's public and operator servers. */
export const BILLING_PUBLIC_CONTROLLERS: Type[] = [];
export const BILLING_ADMIN_CONTROLLERS: Type[] = [];
export const BILLING_PROVIDERS: Provider[] = [];
