import type { Provider, Type } from '@nestjs/common';

/** What the provider feature adds to the gateway's public and operator servers. */
export const PROVIDER_PUBLIC_CONTROLLERS: Type[] = [];
export const PROVIDER_ADMIN_CONTROLLERS: Type[] = [];
export const PROVIDER_PROVIDERS: Provider[] = [];
