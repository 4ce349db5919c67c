import type { Provider, Type } from '@nestjs/common';

/** What the lostfound feature adds to the gateway's public and operator servers. */
export const LOSTFOUND_PUBLIC_CONTROLLERS: Type[] = [];
export const LOSTFOUND_ADMIN_CONTROLLERS: Type[] = [];
export const LOSTFOUND_PROVIDERS: Provider[] = [];
