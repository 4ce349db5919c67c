import type { INestApplication } from '@nestjs/common';
import { ApiProperty, DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { PublicApiModule } from './public-api.module';
import { describeContracts, ERROR_STATUS, WEBHOOK_BODIES } from '@switchboard/contracts';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '@switchboard/signing';

export const OPENAPI_PATH = 'v1/openapi.json';

/**
 * The OpenAPI 3.1 description, generated from the same DTOs that validate requests, so the document cannot
 * drift from the code. Served at /v1/openapi.json, with a reference page at /docs; neither needs a key.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  // The contracts describe their properties without loading @nestjs/swagger (docs/adr/0099); here they become its.
  describeContracts(ApiProperty);
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Switchboard API')
    .setDescription(
      'AI-answered US phone numbers, calls, transcripts and recordings, signed call webhooks, and lost-and-found. ' +
        'Every request needs `Authorization: Bearer <API key>`. Errors are `{ "error": { "code", "message" } }`. ' +
        'Every POST and PATCH takes an optional `Idempotency-Key`: a retry with the same key and body within 24 hours ' +
        'answers the first result again, with the header `Idempotent-Replayed: true`.',
    )
    .setVersion('1.0.0')
    // The description ships in @switchboard/sdk (libs/sdk/openapi.json), under the SDK's licence.
    .setLicense('MIT', 'https://spdx.org/licenses/MIT.html')
    // Relative: the gateway that serves this document (`PORT`), wherever it runs.
    .addServer('/', 'The gateway serving this description')
    // bearerFormat is a hint for documentation tools; Nest's default (JWT) would be wrong: keys are opaque strings.
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'API key',
      description: 'An API key: sk_live_... for live data, sk_test_... for test mode.',
    })
    .build();
  // PublicApiModule's own controllers: the modules it imports (the console's among them) describe themselves.
  const document = SwaggerModule.createDocument(app, config, {
    include: [PublicApiModule],
    extraModels: Object.values(WEBHOOK_BODIES).map((event) => event.body),
  });
  document.components = {
    ...document.components,
    schemas: {
      ...document.components?.schemas,
      Error: {
        type: 'object',
        required: ['error'],
        properties: {
          error: {
            type: 'object',
            required: ['code', 'message'],
            properties: { code: { type: 'string', enum: Object.keys(ERROR_STATUS) }, message: { type: 'string' } },
          },
        },
      },
    },
  };
  declareLivemode(document);
  declareKeyAnswers(document);
  describeWebhooks(document);
  return document;
}

const ERROR_REF = { $ref: '#/components/schemas/Error' } as const;

/**
 * Every `/v1` operation takes an API key (ApiKeyGuard): any of them can answer 401 `unauthorized` (missing, unknown or
 * revoked key, or an address outside its allowlist) and 429 `rate_limited` (the key's limit). Declared once as shared
 * responses and referenced where a route does not declare its own 401 or 429.
 */
function declareKeyAnswers(document: OpenAPIObject): void {
  const rateHeaders = {
    'RateLimit-Limit': { description: "The key's requests per window.", schema: { type: 'integer' } },
    'RateLimit-Remaining': { description: 'Requests left in this window.', schema: { type: 'integer' } },
    'RateLimit-Reset': { description: 'Seconds until the window ends.', schema: { type: 'integer' } },
  } as const;
  document.components = {
    ...document.components,
    responses: {
      ...document.components?.responses,
      Unauthorized: {
        description: 'unauthorized: no API key, an unknown or revoked one, or a request from outside its IP allowlist',
        content: { 'application/json': { schema: ERROR_REF } },
      },
      RateLimited: {
        description: "rate_limited: the key's rate limit is used up; retry after `Retry-After` seconds",
        headers: {
          ...rateHeaders,
          'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
        },
        content: { 'application/json': { schema: ERROR_REF } },
      },
    },
  };
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith('/v1/') || path === `/${OPENAPI_PATH}`) continue;
    for (const operation of Object.values(item) as { responses?: Record<string, unknown>; security?: unknown[] }[]) {
      if (!operation?.responses || !operation.security?.length) continue;
      operation.responses['401'] ??= { $ref: '#/components/responses/Unauthorized' };
      operation.responses['429'] ??= { $ref: '#/components/responses/RateLimited' };
    }
  }
}

/**
 * OpenAPI 3.1's `webhooks`: each event a number's `webhook_url` receives (libs/contracts' webhook bodies), as the
 * POST the dispatcher sends, with its signature headers (docs/webhooks.md), so the SDK types every body.
 */
function describeWebhooks(document: OpenAPIObject): void {
  const header = (name: string, description: string) => ({
    name,
    in: 'header' as const,
    required: true,
    description,
    schema: { type: 'string' as const },
  });
  const headers = [
    header(TIMESTAMP_HEADER, 'Unix epoch seconds at the moment of signing (each attempt is signed anew).'),
    header(
      SIGNATURE_HEADER,
      '`v1=<hex>`: HMAC-SHA256 over `<timestamp>.<raw body>` keyed by the webhook secret; two space-separated values during a rotation.',
    ),
    header(EVENT_ID_HEADER, "The event's id, the same on every attempt and on a redelivery."),
    header('webhook-id', 'Standard Webhooks: the event id.'),
    header('webhook-timestamp', 'Standard Webhooks: the same seconds.'),
    header('webhook-signature', 'Standard Webhooks: `v1,<base64>` over `<id>.<timestamp>.<raw body>`.'),
  ];
  document.webhooks = Object.fromEntries(
    Object.entries(WEBHOOK_BODIES).map(([type, { body, summary }]) => [
      type,
      {
        post: {
          operationId: `${type.replace(/[._](\w)/g, (_, letter: string) => letter.toUpperCase())}Webhook`,
          summary,
          description: `Sent to the number's \`webhook_url\`, signed with its \`webhook_secret\` (docs/webhooks.md); a failed delivery is tried again, up to 5 attempts in all (a test event: once).`,
          tags: ['webhooks'],
          security: [],
          parameters: headers,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${body.name}` } } },
          },
          responses: {
            '2XX': { description: 'Received: any 2xx ends the delivery.' },
            '410': { description: 'Gone: the endpoint is disabled at once, and deliveries wait until it is enabled.' },
          },
        },
      },
    ]),
  );
}

const LIVEMODE = {
  type: 'boolean',
  description: '`false` for what a test key (`sk_test_...`) made and reads, `true` otherwise (docs/adr/0087).',
} as const;

/**
 * Every JSON answer of a `/v1` route carries `livemode`, and so does each item of a list's `data`
 * (LivemodeInterceptor): declared on the schemas those answers use.
 */
function declareLivemode(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  const target = (schema: unknown): Record<string, unknown> | undefined => {
    const ref = (schema as { $ref?: string } | undefined)?.$ref;
    const resolved = ref ? schemas[ref.replace('#/components/schemas/', '')] : schema;
    return resolved && typeof resolved === 'object' && (resolved as { properties?: unknown }).properties
      ? (resolved as Record<string, unknown>)
      : undefined;
  };
  const mark = (schema: Record<string, unknown>) => {
    const properties = schema.properties as Record<string, unknown>;
    properties.livemode = LIVEMODE;
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    if (!required.includes('livemode')) schema.required = [...required, 'livemode'];
  };
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith('/v1/') || path === `/${OPENAPI_PATH}`) continue;
    for (const operation of Object.values(item) as {
      responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
    }[]) {
      for (const [status, response] of Object.entries(operation?.responses ?? {})) {
        if (!status.startsWith('2')) continue;
        const answer = target(response.content?.['application/json']?.schema);
        if (!answer) continue;
        mark(answer);
        const data = (answer.properties as Record<string, { items?: unknown }>).data;
        const item = data?.items ? target(data.items) : undefined;
        if (item) mark(item);
      }
    }
  }
}

/**
 * Built on the first request for it, not at start: scanning every route's DTOs took the gateway 80 ms, the last
 * service ready in `npm start` (ADR 0098).
 */
export function serveOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: OPENAPI_PATH,
    customSiteTitle: 'Switchboard API reference',
    swaggerOptions: { persistAuthorization: true },
  });
}
