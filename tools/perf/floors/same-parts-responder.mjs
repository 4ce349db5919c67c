// The API benchmark's same-parts floor, its service side (issue 53): a Nest microservice on Nest's NATS transport
// whose message handlers run the services' own list statements (FLOOR_NUMBERS_SQL, FLOOR_CALLS_SQL) as one Prisma
// query each, over the driver adapter, and answer the page (floors/list-views.mjs) for Nest to serialize. Prints
// "ready" when listening.
//
// Environment: FLOOR_NUMBERS_DATABASE_URL, FLOOR_CALLS_DATABASE_URL, FLOOR_NUMBERS_SQL, FLOOR_CALLS_SQL, NATS_URL,
// FLOOR_PREFIX.
import { require } from '../lib/common.mjs';
import { callView, listPage, numberView, PAGE } from './list-views.mjs';
import { floorPrismaClient } from './same-parts-prisma.mjs';

require('reflect-metadata');
const { Controller, Inject, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { MessagePattern, Payload, Transport } = require('@nestjs/microservices');

const env = process.env;

class ListsHandler {
  constructor(numbersDb, callsDb) {
    this.numbersDb = numbersDb;
    this.callsDb = callsDb;
  }

  async numbers({ account_id }) {
    return listPage(await this.numbersDb.$queryRawUnsafe(env.FLOOR_NUMBERS_SQL, account_id, PAGE + 1), numberView);
  }

  async calls({ account_id }) {
    return listPage(await this.callsDb.$queryRawUnsafe(env.FLOOR_CALLS_SQL, account_id, PAGE + 1), callView);
  }
}
for (const method of ['numbers', 'calls']) {
  const proto = ListsHandler.prototype;
  Payload()(proto, method, 0);
  MessagePattern(`${env.FLOOR_PREFIX}.same-parts.${method}`)(
    proto,
    method,
    Object.getOwnPropertyDescriptor(proto, method),
  );
}
Inject('NUMBERS_DB')(ListsHandler, undefined, 0);
Inject('CALLS_DB')(ListsHandler, undefined, 1);
Controller()(ListsHandler);

class ResponderModule {}
Module({
  controllers: [ListsHandler],
  providers: [
    // The services' read pools (ADR 0070): 3 connections each.
    { provide: 'NUMBERS_DB', useValue: floorPrismaClient(env.FLOOR_NUMBERS_DATABASE_URL, 3) },
    { provide: 'CALLS_DB', useValue: floorPrismaClient(env.FLOOR_CALLS_DATABASE_URL, 3) },
  ],
})(ResponderModule);

const app = await NestFactory.createMicroservice(ResponderModule, {
  transport: Transport.NATS,
  options: { servers: [env.NATS_URL], queue: 'same-parts-floor' },
  logger: false,
});
process.once('SIGTERM', () => void app.close().finally(() => process.exit(0)));
await app.listen();
console.log('ready');
