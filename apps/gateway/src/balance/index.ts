import type { Provider, Type } from '@nestjs/common';
import { BalanceHttpController } from './balance.http.controller';

/** What the balance feature adds to the gateway's public and operator servers. */
export const BALANCE_PUBLIC_CONTROLLERS: Type[] = [BalanceHttpController];
export const BALANCE_ADMIN_CONTROLLERS: Type[] = [];
export const BALANCE_PROVIDERS: Provider[] = [];
