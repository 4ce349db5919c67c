import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { ERROR_STATUS } from '@switchboard/contracts';

export const OPENAPI_PATH = 'v1/openapi.json';

/**
 * The OpenAPI 3.1 description, generated from the same DTOs that validate requests, so the document cannot
 * drift from the code. Served at /v1/openapi.json, with a reference page at /docs; neither needs a key.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
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
  return document;
}

export function serveOpenApi(app: INestApplication): void {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: OPENAPI_PATH,
    customSiteTitle: 'Switchboard API reference',
    swaggerOptions: { persistAuthorization: true },
  });
}
