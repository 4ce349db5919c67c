import { IsISO8601, IsString, Matches } from 'class-validator';
import { ACCOUNT_ID_PATTERN } from '../common/validation';

/**
 * Where a gateway announces a key it revoked (operator API, console revoke): plain core NATS, no stream and no queue
 * group, so every gateway replica hears it and ends the key's `webhook/listen` streams at once
 * (docs/adr/0128-webhook-signatures-secrets-and-listen.md). A replica that misses one (NATS away) finds the key revoked when it checks its
 * streams' keys in the database.
 */
export const API_KEY_REVOCATIONS_SUBJECT = 'api-key-revocations.v1';

/** A key id as the console and the operator API name it. */
export const API_KEY_ID_PATTERN = /^key_[0-9a-f]{24}$/;

/** One revoked key: its id, its account (the test twin for a test key) and when it was revoked. */
export class ApiKeyRevocation {
  @IsString() @Matches(API_KEY_ID_PATTERN) key_id: string;
  @IsString() @Matches(ACCOUNT_ID_PATTERN) account_id: string;
  @IsISO8601() revoked_at: string;
}
