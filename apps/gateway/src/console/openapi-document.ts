import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiProperty, DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { describeContracts } from '@switchboard/contracts';
import { GatewayCoreModule, type GatewayShared } from '../gateway-core.module';
import { ClaimantModule } from '../claimant/claimant.module';
import { ConsoleModule } from './console.module';

/**
 * The console's OpenAPI description (`/console/api/*`, docs/console/api.md), built as the public one is
 * (public/openapi-document.ts): ConsoleModule on the gateway's core, as the public app imports them, in Nest's preview
 * mode, which reads the controllers and DTOs without making a provider, so no database or NATS is needed. Not served:
 * `tools/sdk/generate.mjs` writes it and the console's typed client's types from it into
 * apps/console/src/console-api/generated/.
 */
export async function consoleOpenApiDocument(): Promise<OpenAPIObject> {
  const shared = {
    config: {},
    messaging: {},
    logger: undefined,
    prisma: undefined,
    nats: undefined,
    readiness: undefined,
  } as unknown as GatewayShared;
  const app = await NestFactory.create<NestFastifyApplication>(
    { imports: [GatewayCoreModule.forRoot(shared), ConsoleModule, ClaimantModule] },
    new FastifyAdapter(),
    { preview: true, logger: false, abortOnError: false },
  );
  // No global prefix: the console's routes are outside /v1 (bootstrap.ts excludes `console/{*path}`).
  try {
    return buildConsoleOpenApiDocument(app);
  } finally {
    await app.close();
  }
}

/**
 * The console's routes (ConsoleModule's controllers) and its claimant page's (ClaimantModule's), from the same DTOs
 * that validate their requests.
 */
export function buildConsoleOpenApiDocument(app: INestApplication): OpenAPIObject {
  // The contracts describe their properties without loading @nestjs/swagger (docs/adr/0093); here they become its.
  describeContracts(ApiProperty);
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Switchboard console API')
    .setDescription(
      "The developer console's own API, beside `/v1` on the public port (docs/console/api.md). Sessions instead of " +
        'API keys: the `sb_session` cookie, set by sign-in, and `X-CSRF-Token: <csrf_token>` on every POST, PUT, ' +
        "PATCH and DELETE; the claimant page's `/claim/api/*` needs neither (a limit per client address). Errors are " +
        '`{ "error": { "code", "message" } }`, as on `/v1`. Made for the console at ' +
        '`/console/`, whose typed client is generated from this description; it changes with the console.',
    )
    .setVersion('1.0.0')
    .addServer('/', 'The gateway serving the console')
    .build();
  return SwaggerModule.createDocument(app, config, { include: [ConsoleModule, ClaimantModule] });
}
