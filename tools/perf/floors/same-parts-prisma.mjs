// The same-parts floor's Prisma client: a generated client over the stock PostgreSQL driver adapter, with Prisma's
// defaults. The floor runs raw statements only (`$queryRawUnsafe`), which do not depend on the schema's models, so
// one generated client (the gateway's, from its build) serves every database.
import { join } from 'node:path';
import { require, root } from '../lib/common.mjs';

const { PrismaPg } = require('@prisma/adapter-pg');
const { PrismaClient } = require(join(root, 'apps/gateway/dist/generated/prisma/client.js'));

/** A client over `url` with a pool of `max` connections, in UTC sessions as the services' (libs/persistence). */
export function floorPrismaClient(url, max) {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max, options: '-c TimeZone=UTC' }) });
}
