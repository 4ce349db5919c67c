import 'reflect-metadata';
import { Body, Controller, Get, HttpCode, Module, Post, Query } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ListNumbersQuery, ServiceError, SimulateProviderCallBody } from '@switchboard/contracts';
import type { FastifyRequest } from 'fastify';
import pino from 'pino';
import { loadGatewayConfig } from '../config/gateway.config';
import { serveDirectly, statusOf, type DirectRoute } from './direct-routes';
import { ErrorEnvelopeFilter } from './error-envelope.filter';
import { createFastifyAdapter } from './fastify-adapter';
import { createValidationPipe } from './validation.pipe';

const call = { to: '+14158675309', caller: '+14158675309', duration_sec: 60, outcome: 'order_placed' };

@Controller('things')
class ThingsController {
  readonly handled: unknown[] = [];
  failWith: ServiceError | undefined;

  @Post()
  @HttpCode(202)
  report(@Body() body: SimulateProviderCallBody): Promise<{ call_sid: string }> {
    return this.answer(body, { call_sid: 'CA1' });
  }

  @Get()
  list(@Query() query: ListNumbersQuery): Promise<{ data: unknown[] }> {
    return this.answer(query, { data: [] });
  }

  @Post('created')
  create(@Body() body: SimulateProviderCallBody): Promise<{ ok: true }> {
    return this.answer(body, { ok: true });
  }

  private async answer<T>(input: unknown, result: T): Promise<T> {
    this.handled.push(input);
    if (this.failWith) throw this.failWith;
    return result;
  }
}

@Module({ controllers: [ThingsController] })
class ThingsModule {}

const TOKEN = 'Bearer let-me-in';

/** A route that is never requested: the base of the routes below. */
const routeStub: DirectRoute = {
  method: 'POST',
  url: '/',
  authorize: () => undefined,
  input: { from: 'body', type: SimulateProviderCallBody },
  handler: () => undefined,
  handle: () => Promise.resolve(undefined),
};

describe('serveDirectly (routes outside Nest pipeline, docs/adr/0096 and 0108)', () => {
  let app: NestFastifyApplication;
  let controller: ThingsController;
  let served: { checkServed(): void };

  beforeAll(async () => {
    const logger = pino({ level: 'silent' });
    const config = loadGatewayConfig({ ADMIN_TOKEN: 'a-long-enough-admin-token' });
    app = await NestFactory.create<NestFastifyApplication>(
      ThingsModule,
      createFastifyAdapter(config, logger, { server: 'admin' }),
      { logger: false },
    );
    const steps = { validation: createValidationPipe(), errors: new ErrorEnvelopeFilter(logger) };
    app.useGlobalPipes(steps.validation);
    app.useGlobalFilters(steps.errors);
    controller = app.get(ThingsController);
    const authorize = (request: FastifyRequest) => {
      if (request.headers.authorization !== TOKEN) throw new ServiceError('unauthorized', 'Who are you?');
    };
    const routes: DirectRoute[] = [
      // A body's route (routeStub's input), then a query's.
      {
        ...routeStub,
        url: '/things',
        authorize,
        handler: controller.report,
        handle: (body) => controller.report(body as never),
      },
      {
        ...routeStub,
        method: 'GET',
        url: '/things',
        authorize,
        input: { from: 'query', type: ListNumbersQuery },
        handler: controller.list,
        handle: (query) => controller.list(query as never),
        answer: (body, request) => ({ ...(body as object), request_id: request.id }),
      },
    ];
    served = serveDirectly(app, steps, routes);
    await app.init();
  });

  afterAll(() => app.close());

  beforeEach(() => {
    controller.handled.length = 0;
    controller.failWith = undefined;
  });

  const inject = (method: 'GET' | 'POST' | 'HEAD', url: string, payload?: object, authorization = TOKEN) =>
    app.inject({ method, url, payload, headers: { authorization } });

  it("answers with the method's @HttpCode and its result, the input validated and transformed by the pipe", async () => {
    const answer = await inject('POST', '/things', call);
    expect(answer.statusCode).toBe(202);
    expect(answer.json()).toEqual({ call_sid: 'CA1' });
    expect(controller.handled).toEqual([expect.any(SimulateProviderCallBody)]);
    expect(controller.handled[0]).toMatchObject(call);
  });

  it('refuses with the envelope when the guard throws, before validation and without calling the method', async () => {
    const answer = await inject('POST', '/things', { nonsense: true }, 'Bearer wrong');
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toEqual({ error: { code: 'unauthorized', message: 'Who are you?' } });
    expect(controller.handled).toEqual([]);
  });

  it("answers invalid input with the pipe's 400 in the envelope, the method not called", async () => {
    const answer = await inject('POST', '/things', { ...call, duration_sec: -1, surprise: 1 });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error.code).toBe('invalid_request');
    expect(answer.json().error.message).toContain('surprise is not a known field');
    expect(controller.handled).toEqual([]);
  });

  it("answers the method's error through the filter", async () => {
    controller.failWith = new ServiceError('number_not_in_service', 'to +14158675309 is not a Switchboard number.');
    const answer = await inject('POST', '/things', call);
    expect(answer.statusCode).toBe(422);
    expect(answer.json()).toEqual({
      error: { code: 'number_not_in_service', message: 'to +14158675309 is not a Switchboard number.' },
    });
  });

  it('validates a query, shapes the answer, and answers a HEAD of a GET route', async () => {
    const listed = await inject('GET', '/things?limit=5');
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({ data: [], request_id: expect.any(String) });
    expect(controller.handled).toEqual([expect.objectContaining({ limit: 5 })]);
    expect((await inject('GET', '/things?limit=0')).statusCode).toBe(400);
    expect((await inject('HEAD', '/things')).statusCode).toBe(200);
    // Nest would serve it without the guard: the refusal says it was served here.
    expect((await inject('HEAD', '/things', undefined, 'Bearer wrong')).statusCode).toBe(401);
  });

  it('leaves every other route to Nest', async () => {
    const created = await inject('POST', '/things/created', call, 'Bearer not-checked-by-nest');
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ ok: true });
  });

  it('says which routes were not taken over', async () => {
    expect(() => served.checkServed()).not.toThrow();
    const other = await NestFactory.create<NestFastifyApplication>(
      ThingsModule,
      createFastifyAdapter(loadGatewayConfig({ ADMIN_TOKEN: 'a-long-enough-admin-token' }), pino({ level: 'silent' }), {
        server: 'admin',
      }),
      { logger: false },
    );
    try {
      const missing = serveDirectly(
        other,
        { validation: createValidationPipe(), errors: new ErrorEnvelopeFilter(pino({ level: 'silent' })) },
        [{ ...routeStub, url: '/elsewhere' }],
      );
      await other.init();
      expect(() => missing.checkServed()).toThrow("routes not served outside Nest's pipeline: POST /elsewhere");
    } finally {
      await other.close();
    }
  });

  it("takes the status Nest would: the method's @HttpCode, else 201 for a POST and 200 for a GET", () => {
    expect(statusOf({ method: 'POST', handler: ThingsController.prototype.report })).toBe(202);
    expect(statusOf({ method: 'POST', handler: ThingsController.prototype.create })).toBe(201);
    expect(statusOf({ method: 'GET', handler: ThingsController.prototype.list })).toBe(200);
  });
});
