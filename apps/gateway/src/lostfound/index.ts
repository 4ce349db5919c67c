import type { Provider, Type } from '@nestjs/common';
import { ClaimsHttpController } from './claims.http.controller';
import { FoundItemsHttpController } from './found-items.http.controller';
import { SmsAdminController } from './sms.admin.controller';

/** What the lostfound feature adds to the gateway's public and operator servers. */
export const LOSTFOUND_PUBLIC_CONTROLLERS: Type[] = [FoundItemsHttpController, ClaimsHttpController];
export const LOSTFOUND_ADMIN_CONTROLLERS: Type[] = [SmsAdminController];
export const LOSTFOUND_PROVIDERS: Provider[] = [];
