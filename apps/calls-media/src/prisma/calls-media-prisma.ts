import { sqlBuilder } from '@switchboard/persistence';
import type { DB } from '../generated/kysely/database';
import { PrismaClient } from '../generated/prisma/client';

/** calls-media's Prisma client, injected by this class (see PrismaModule). */
export { PrismaClient as CallsMediaPrisma };

/** Kysely over calls-media's generated table types: builds its hand-written statements (ADR 0070). */
export const db = sqlBuilder<DB>();
