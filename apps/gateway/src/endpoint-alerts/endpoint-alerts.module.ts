import { Module } from '@nestjs/common';
import { EndpointAlertsConsumer } from './endpoint-alerts.consumer';
import { EndpointAlertsRepository } from './endpoint-alerts.repository';
import { AlertedNumberLookup, EndpointAlertsService, RpcAlertedNumberLookup } from './endpoint-alerts.service';

/** Mails the owners of an account when a number's webhook endpoint is disabled (docs/adr/0075). */
@Module({
  controllers: [EndpointAlertsConsumer],
  providers: [
    EndpointAlertsRepository,
    { provide: AlertedNumberLookup, useClass: RpcAlertedNumberLookup },
    EndpointAlertsService,
  ],
})
export class EndpointAlertsModule {}
