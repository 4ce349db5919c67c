import type { Provider, Type } from '@nestjs/common';
import { CallsHttpController } from './calls.http.controller';

/** What the calls feature adds to the gateway's public and operator servers. */
export const CALLS_PUBLIC_CONTROLLERS: Type[] = [CallsHttpController];
export const CALLS_ADMIN_CONTROLLERS: Type[] = [];
export const CALLS_PROVIDERS: Provider[] = [];
