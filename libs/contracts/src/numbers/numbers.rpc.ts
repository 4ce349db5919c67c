import { defineRpc } from '../messaging/rpc';
import {
  GetNumberQuery,
  ListNumbersQuery,
  NumberCreated,
  NumberList,
  NumberReleased,
  ProvisionNumberCommand,
  NumberView,
  ReleaseNumberCommand,
  ServiceNumberQuery,
  UpdateNumberCommand,
  RotateWebhookSecretCommand,
  type WebhookSecretRotated,
  type ServiceNumberStanding,
} from './number.dto';

/** Account-scoped: the account travels in the `sb-account-id` header, set by the gateway. */
export const NumbersRpc = {
  provision: defineRpc<ProvisionNumberCommand, NumberCreated>('numbers.v1.provision', ProvisionNumberCommand),
  list: defineRpc<ListNumbersQuery, NumberList>('numbers.v1.list', ListNumbersQuery),
  release: defineRpc<ReleaseNumberCommand, NumberReleased>('numbers.v1.release', ReleaseNumberCommand),
  get: defineRpc<GetNumberQuery, NumberView>('numbers.v1.get', GetNumberQuery),
  update: defineRpc<UpdateNumberCommand, NumberView>('numbers.v1.update', UpdateNumberCommand),
  rotateWebhookSecret: defineRpc<RotateWebhookSecretCommand, WebhookSecretRotated>(
    'numbers.v1.webhook-secret.rotate',
    RotateWebhookSecretCommand,
  ),
} as const;

/** Internal (calls-media's simulated provider): was a phone number in service when a call started. */
export const ServiceNumberRpc = defineRpc<ServiceNumberQuery, ServiceNumberStanding>(
  'numbers.v1.service-number.get',
  ServiceNumberQuery,
);
