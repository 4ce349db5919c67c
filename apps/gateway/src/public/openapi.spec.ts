import type { Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { GatewayShared } from '../gateway-core.module';
import { IDEMPOTENT_ROUTE } from '../idempotency/idempotency.interceptor';
import { ClaimantHttpController } from '../claimant/claimant.http.controller';
import { HealthController } from './health.controller';
import { publicOpenApiDocument } from './openapi-document';
import { PublicApiModule } from './public-api.module';

interface Route {
  controller: string;
  handler: string;
  method: string;
  /** As OpenAPI writes it: `/v1/numbers/{id}`. */
  path: string;
  idempotent: boolean;
}

/** Every route of the public controllers, read from Nest's own metadata (what the router serves). */
function publicRoutes(): Route[] {
  const controllers = (PublicApiModule.forRoot({ messaging: {} } as unknown as GatewayShared).controllers ??
    []) as Type[];
  return (
    controllers
      // The probes and the claimant page's backend live outside /v1 and its description (docs/adr/0078).
      .filter((controller) => controller !== HealthController && controller !== ClaimantHttpController)
      .flatMap((controller) => {
        const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
        const prototype = controller.prototype as Record<string, unknown>;
        return Object.getOwnPropertyNames(prototype)
          .filter(
            (name) =>
              name !== 'constructor' && Reflect.getMetadata(PATH_METADATA, prototype[name] as object) !== undefined,
          )
          .map((name) => {
            const handler = prototype[name] as object;
            const sub = String(Reflect.getMetadata(PATH_METADATA, handler));
            const joined = ['v1', base, sub].filter((part) => part && part !== '/').join('/');
            return {
              controller: controller.name,
              handler: name,
              method: RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number].toLowerCase(),
              path: `/${joined}`.replace(/:([a-z_]+)/gi, '{$1}'),
              idempotent: Reflect.getMetadata(IDEMPOTENT_ROUTE, handler) !== undefined,
            };
          });
      })
  );
}

let document: OpenAPIObject;
beforeAll(async () => {
  document = await publicOpenApiDocument();
}, 60_000);

describe('the public OpenAPI description', () => {
  it('describes every public route, and no route that does not exist', () => {
    const routes = publicRoutes();
    expect(routes.length).toBeGreaterThan(15);
    const served = routes.map((route) => `${route.method} ${route.path}`).sort();
    const described = Object.entries(document.paths)
      .flatMap(([path, item]) =>
        Object.keys(item)
          .filter((key) => ['get', 'post', 'put', 'patch', 'delete'].includes(key))
          .map((method) => `${method} ${path}`),
      )
      .sort();
    expect(described).toEqual(served);
  });

  it('takes an Idempotency-Key on every POST and PATCH', () => {
    const writes = publicRoutes().filter((route) => route.method === 'post' || route.method === 'patch');
    expect(writes.filter((route) => !route.idempotent).map((route) => `${route.controller}.${route.handler}`)).toEqual(
      [],
    );
    for (const route of writes) {
      const parameters =
        (document.paths[route.path] as Record<string, { parameters?: { name: string; in: string }[] }>)[route.method]
          .parameters ?? [];
      expect(parameters).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }));
    }
  });

  it('declares a typed success answer for every operation', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(
        item as Record<string, { responses?: Record<string, { content?: Record<string, unknown> }> }>,
      )) {
        if (!operation.responses) continue;
        const success = Object.entries(operation.responses).filter(([status]) => status.startsWith('2'));
        expect({ path, method, success: success.length > 0 }).toEqual({ path, method, success: true });
        for (const [status, answer] of success) {
          expect({ path, method, status, typed: Object.keys(answer.content ?? {}).length > 0 }).toEqual({
            path,
            method,
            status,
            typed: true,
          });
        }
      }
    }
  });

  it('documents the webhook routes of issue 18', () => {
    for (const path of [
      '/v1/numbers/{id}/webhook-events',
      '/v1/numbers/{id}/webhook-events/{event_id}/redeliver',
      '/v1/numbers/{id}/webhook-events/recover',
      '/v1/numbers/{id}/webhook-test',
      '/v1/numbers/{id}/webhook-secret/rotate',
    ]) {
      expect(document.paths[path]).toBeDefined();
    }
    expect(Object.keys((document.components?.schemas?.WebhookEventView as { properties: object }).properties)).toEqual(
      expect.arrayContaining(['id', 'type', 'status', 'next_attempt_at', 'attempts']),
    );
  });
});
