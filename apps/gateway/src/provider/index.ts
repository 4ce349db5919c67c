import type { Provider, Type } from '@nestjs/common';
import { ProviderCallsAdminController } from './calls.admin.controller';
import { ProviderAdminController } from './provider.admin.controller';

/** What the provider feature adds to the gateway's public and operator servers. */
export const PROVIDER_PUBLIC_CONTROLLERS: Type[] = [];
/** Stock and faults drive the simulated provider in numbers-billing; calls drive the one in calls-media. */
export const PROVIDER_ADMIN_CONTROLLERS: Type[] = [ProviderAdminController, ProviderCallsAdminController];
export const PROVIDER_PROVIDERS: Provider[] = [];
