import { defineRpc } from '../messaging/rpc';
import {
  ListNumbersQuery,
  NumberCreated,
  NumberList,
  NumberReleased,
  ProvisionNumberCommand,
  ReleaseNumberCommand,
} from './number.dto';

/** Account-scoped: the account travels in the `sb-account-id` header, set by the gateway. */
export const NumbersRpc = {
  provision: defineRpc<ProvisionNumberCommand, NumberCreated>('numbers.v1.provision', ProvisionNumberCommand),
  list: defineRpc<ListNumbersQuery, NumberList>('numbers.v1.list', ListNumbersQuery),
  release: defineRpc<ReleaseNumberCommand, NumberReleased>('numbers.v1.release', ReleaseNumberCommand),
} as const;
