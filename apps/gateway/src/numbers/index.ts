import type { Provider, Type } from '@nestjs/common';
import { NumbersHttpController } from './numbers.http.controller';

/** What the numbers feature adds to the gateway's public and operator servers. */
export const NUMBERS_PUBLIC_CONTROLLERS: Type[] = [NumbersHttpController];
export const NUMBERS_ADMIN_CONTROLLERS: Type[] = [];
export const NUMBERS_PROVIDERS: Provider[] = [];
