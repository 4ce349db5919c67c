// The API benchmark's same-parts floor, its gateway side (issue 53): the smallest Nest app that does the gateway's
// hops with the stock parts, used plainly. A Nest app on the Fastify adapter with the global ValidationPipe and the
// contract's own query DTOs (`ListNumbersQuery`, `ListCallsQuery`); a guard that runs the gateway's own
// authentication statement (FLOOR_AUTH_SQL) through a Prisma client over the driver adapter; the list asked of the
// service side (floors/same-parts-responder.mjs) with a stock `ClientProxy` over NATS (`send`, Nest's own JSON
// envelope and reply inbox); the answer returned for Nest to serialize. What the system adds beyond this (its
// envelope, logs, traces, metrics, headers) is what the same-parts share measures. Prints its port, then serves until
// killed.
//
// Decorators are applied as the functions they are (this kit is plain JavaScript, run without a compiler).
//
// Environment: FLOOR_AUTH_DATABASE_URL, FLOOR_AUTH_SQL, FLOOR_WINDOW_SECONDS, FLOOR_RATE_LIMIT, NATS_URL, FLOOR_PREFIX.
import { require } from '../lib/common.mjs';
import { keyHash } from './list-views.mjs';
import { floorPrismaClient } from './same-parts-prisma.mjs';

require('reflect-metadata');
const {
  Controller,
  Get,
  HttpException,
  Inject,
  Injectable,
  Module,
  Query,
  Req,
  UnauthorizedException,
  UseGuards,
  ValidationPipe,
} = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { ClientsModule, Transport } = require('@nestjs/microservices');
const { FastifyAdapter } = require('@nestjs/platform-fastify');
const { ListCallsQuery, ListNumbersQuery } = require('@switchboard/contracts');
const { firstValueFrom } = require('rxjs');

const env = process.env;
const window = Number(env.FLOOR_WINDOW_SECONDS);
const limit = Number(env.FLOOR_RATE_LIMIT);
const LISTS = 'LISTS';
const AUTH_DB = 'AUTH_DB';

/** The API key's account, from the gateway's own statement (key lookup and rate-limit count in one). */
class KeyGuard {
  constructor(db) {
    this.db = db;
  }

  async canActivate(context) {
    const request = context.switchToHttp().getRequest();
    const hash = keyHash(request.headers.authorization);
    if (!hash) throw new UnauthorizedException();
    const [key] = await this.db.$queryRawUnsafe(env.FLOOR_AUTH_SQL, hash, window, window);
    if (!key) throw new UnauthorizedException();
    if (Number(key.count) > limit) throw new HttpException('Too many requests.', 429);
    request.accountId = key.account_id;
    return true;
  }
}
Injectable()(KeyGuard);
Inject(AUTH_DB)(KeyGuard, undefined, 0);

class ListsController {
  constructor(lists) {
    this.lists = lists;
  }

  numbers(query, request) {
    return firstValueFrom(
      this.lists.send(`${env.FLOOR_PREFIX}.same-parts.numbers`, { account_id: request.accountId, query }),
    );
  }

  calls(query, request) {
    return firstValueFrom(
      this.lists.send(`${env.FLOOR_PREFIX}.same-parts.calls`, { account_id: request.accountId, query }),
    );
  }
}
for (const [method, path, dto] of [
  ['numbers', 'numbers', ListNumbersQuery],
  ['calls', 'calls', ListCallsQuery],
]) {
  const proto = ListsController.prototype;
  // What TypeScript's emitDecoratorMetadata writes: the ValidationPipe validates the query as this class.
  Reflect.defineMetadata('design:paramtypes', [dto, Object], proto, method);
  Query()(proto, method, 0);
  Req()(proto, method, 1);
  Get(path)(proto, method, Object.getOwnPropertyDescriptor(proto, method));
}
Inject(LISTS)(ListsController, undefined, 0);
UseGuards(KeyGuard)(ListsController);
Controller('v1')(ListsController);

const authDb = floorPrismaClient(env.FLOOR_AUTH_DATABASE_URL, 4);

class FloorModule {}
Module({
  imports: [ClientsModule.register([{ name: LISTS, transport: Transport.NATS, options: { servers: [env.NATS_URL] } }])],
  controllers: [ListsController],
  providers: [KeyGuard, { provide: AUTH_DB, useValue: authDb }],
})(FloorModule);

const app = await NestFactory.create(FloorModule, new FastifyAdapter(), { logger: false });
app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }));
app.enableShutdownHooks();
// SIGTERM ends the process through exit, so that under --cpu-prof its profile is written.
process.once('SIGTERM', () => void app.close().finally(() => process.exit(0)));
await app.listen(0, '127.0.0.1');
console.log(new URL(await app.getUrl()).port);
