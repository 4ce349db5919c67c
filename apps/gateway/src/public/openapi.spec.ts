import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import {
  WEBHOOK_EVENT_TYPES,
  type BalanceLowWebhook,
  type CallCompletedWebhook,
  type CallStartedWebhook,
  type CallUpdatedWebhook,
  type NumberPastDueWebhook,
  type NumberReleasedWebhook,
  type TestWebhook,
  type TopUpFailedWebhook,
} from '@switchboard/contracts';
import type {
  BalanceLowWebhookBody,
  CallCompletedWebhookBody,
  CallStartedWebhookBody,
  CallUpdatedWebhookBody,
  NumberWebhookBody,
  TopUpFailedWebhookBody,
  WebhookTestBody,
} from '@switchboard/signing';
import type { GatewayShared } from '../gateway-core.module';
import { IDEMPOTENT_ROUTE } from '../idempotency/idempotency.interceptor';
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
  const controllers = PublicApiModule.forRoot({ messaging: {} } as unknown as GatewayShared).controllers ?? [];
  return (
    controllers
      // The probes live outside /v1 and its description.
      .filter((controller) => controller !== HealthController)
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

  it('declares a typed success answer for every operation (none for a 204)', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(
        item as Record<string, { responses?: Record<string, { content?: Record<string, unknown> }> }>,
      )) {
        if (!operation.responses) continue;
        const success = Object.entries(operation.responses).filter(([status]) => status.startsWith('2'));
        expect({ path, method, success: success.length > 0 }).toEqual({ path, method, success: true });
        for (const [status, answer] of success) {
          // A 204 has no content (RFC 9110, 15.3.5); every other success answer is typed.
          expect({ path, method, status, typed: Object.keys(answer.content ?? {}).length > 0 }).toEqual({
            path,
            method,
            status,
            typed: status !== '204',
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

  it('lets every operation answer 401 and 429, as the key guard does', () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(
        item as Record<string, { responses?: Record<string, unknown> }>,
      )) {
        for (const status of ['401', '429'])
          if (!operation.responses?.[status]) missing.push(`${method} ${path} ${status}`);
      }
    }
    expect(missing).toEqual([]);
    expect(document.components?.responses?.RateLimited).toMatchObject({
      headers: expect.objectContaining({ 'Retry-After': expect.anything() }),
    });
  });

  it('describes the body of every webhook event under webhooks, from the contracts', () => {
    const webhooks = document.webhooks as Record<
      string,
      { post: { requestBody: { content: Record<string, { schema: { $ref: string } }> } } }
    >;
    expect(Object.keys(webhooks ?? {}).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    for (const [type, item] of Object.entries(webhooks)) {
      const ref = item.post.requestBody.content['application/json'].schema.$ref;
      const schema = document.components?.schemas?.[ref.replace('#/components/schemas/', '')] as {
        properties: Record<string, { enum?: string[] }>;
        required: string[];
      };
      expect({ type, enum: schema.properties.type.enum }).toEqual({ type, enum: [type] });
      expect(schema.required).toEqual(expect.arrayContaining(['type', 'number_id', 'occurred_at']));
    }
  });

  it("passes Redocly's recommended rules with no error or warning, offline", () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(document));
      const root = join(__dirname, '..', '..', '..', '..');
      const lint = spawnSync(
        process.execPath,
        [join(root, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', file, '--format=stylish'],
        {
          cwd: dir,
          encoding: 'utf8',
          timeout: 60_000,
          // No telemetry, no update check: the lint must not reach the network (nor wait for it).
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
        },
      );
      const output = `${lint.stdout}${lint.stderr}`;
      expect({ status: lint.status, signal: lint.signal, problems: output.match(/^.*(error|warning) .*$/gm) }).toEqual({
        status: 0,
        signal: null,
        problems: null,
      });
      expect(output).toContain('Your API description is valid');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});

// The webhook bodies the description declares (libs/contracts) are the ones the dispatcher sends (libs/signing's
// interfaces): each pair must be assignable both ways, or this file does not compile (`npm test` type-checks it).
// libs/signing has one interface for both number events, with either status: each event's body fits it.
type Fits<A, B> = [A] extends [B] ? true : false;
type Same<A, B> = Fits<A, B> extends true ? Fits<B, A> : false;
export const webhookBodiesAgree: [
  Same<CallCompletedWebhook, CallCompletedWebhookBody>,
  Same<CallStartedWebhook, CallStartedWebhookBody>,
  Same<CallUpdatedWebhook, CallUpdatedWebhookBody>,
  Same<TestWebhook, WebhookTestBody>,
  Fits<NumberPastDueWebhook | NumberReleasedWebhook, NumberWebhookBody>,
  Same<BalanceLowWebhook, BalanceLowWebhookBody>,
  Same<TopUpFailedWebhook, TopUpFailedWebhookBody>,
] = [true, true, true, true, true, true, true];
