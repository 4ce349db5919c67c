import type { INestApplication } from '@nestjs/common';
import { ApiProperty, DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { describeContracts, ERROR_STATUS } from '@switchboard/contracts';

export const OPENAPI_PATH = 'v1/openapi.json';

/**
 * The OpenAPI 3.1 description, generated from the same DTOs that validate requests, so the document cannot
 * drift from the code. Served at /v1/openapi.json, with a reference page at /docs; neither needs a key.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  // The contracts describe their properties without loading @nestjs/swagger (docs/adr/0093); here they become its.
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
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API key (sk_live_...).' })
    .build();
  const document = SwaggerModule.createDocument(app, config);
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
  return document;
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
