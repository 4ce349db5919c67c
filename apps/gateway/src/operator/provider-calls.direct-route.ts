import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SimulateProviderCallBody } from '@switchboard/contracts';
import { AdminTokenGuard, callerOf } from '../auth';
import type { DirectRoute } from '../http/direct-routes';
import { ProviderCallsAdminController } from './provider-calls.admin.controller';

/**
 * `POST /admin/provider/calls`, the report of every simulated call, as `serveDirectly` answers it outside Nest's
 * per-request pipeline (docs/adr/0108): the operator token's check, the body validated by its DTO, the controller's
 * `report` (202, its `@HttpCode`).
 */
export function directReportRoute(app: NestFastifyApplication): DirectRoute {
  const controller = app.get(ProviderCallsAdminController);
  const guard = app.get(AdminTokenGuard);
  return {
    method: 'POST',
    url: '/admin/provider/calls',
    authorize: (request) => void guard.authorize(request),
    input: { from: 'body', type: SimulateProviderCallBody },
    handler: controller.report,
    handle: (body, request) => controller.report(body as SimulateProviderCallBody, callerOf(request)),
  };
}
