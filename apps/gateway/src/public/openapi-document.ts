import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { GatewayShared } from '../gateway-core.module';
import { buildOpenApiDocument } from './openapi';
import { PublicApiModule } from './public-api.module';

/**
 * The public OpenAPI description without a running gateway: Nest's preview mode reads the controllers and DTOs
 * without making a provider, so no database or NATS is needed. `tools/sdk/generate.mjs` writes the SDK's types
 * from it, and the tests compare it with the routes. The served `/v1/openapi.json` is built the same way.
 */
export async function publicOpenApiDocument(): Promise<OpenAPIObject> {
  const shared = {
    config: {},
    messaging: {},
    logger: undefined,
    prisma: undefined,
    nats: undefined,
    readiness: undefined,
  } as unknown as GatewayShared;
  const app = await NestFactory.create<NestFastifyApplication>(PublicApiModule.forRoot(shared), new FastifyAdapter(), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  app.setGlobalPrefix('v1', { exclude: ['healthz', 'readyz'] });
  try {
    return buildOpenApiDocument(app);
  } finally {
    await app.close();
  }
}
