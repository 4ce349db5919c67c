import { ApiProperty, ApiPropertyOptional } from '../common/api-property';
import { IsOmittable } from '../common/validation';
import { IsEmail, IsIn, IsString, Matches, MaxLength } from 'class-validator';
import { API_KEY_MODES, type ApiKeyMode } from '../accounts/account-mode';
import { AutoTopUp, TIERS, type Tier } from '../accounts/account.dto';
import { ApiKeyCreated } from '../api-keys/api-key.dto';
import { AgentSettingsView } from '../numbers/agent.dto';

/**
 * The developer console's own surface (`/console/api/*`, docs/console/api.md): people, invites and sessions.
 * Keys, numbers, calls and money reuse the public API's DTOs.
 */
/** `staff`: venue staff, who see and use only the lost-and-found desk of the account's locations (docs/adr/0080). */
export const CONSOLE_ROLES = ['owner', 'developer', 'viewer', 'staff'] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

/** RFC 5321's longest forward path. */
export const MAX_EMAIL_LENGTH = 254;
/** Longer passwords are refused before hashing: argon2 of a megabyte would be a cheap way to burn CPU. */
export const MAX_PASSWORD_LENGTH = 256;
const MAX_TOKEN_LENGTH = 200;

/** `POST /console/api/sign-in`. */
export class SignInBody {
  @ApiProperty({ example: 'jane@example.com', maxLength: MAX_EMAIL_LENGTH })
  @IsString()
  @MaxLength(MAX_EMAIL_LENGTH)
  @IsEmail()
  email: string;

  @ApiProperty({ maxLength: MAX_PASSWORD_LENGTH })
  @IsString()
  @MaxLength(MAX_PASSWORD_LENGTH)
  password: string;
}

/** `POST /console/api/invites/lookup`. */
export class InviteTokenBody {
  @ApiProperty({ description: 'The token from the invite link (after `#token=`).' })
  @IsString()
  @MaxLength(MAX_TOKEN_LENGTH)
  token: string;
}

/** `POST /console/api/invites/accept`. */
export class AcceptInviteBody extends InviteTokenBody {
  @ApiProperty({
    maxLength: MAX_PASSWORD_LENGTH,
    description: 'At least 12 characters, not the email address, not a common password.',
  })
  @IsString()
  @MaxLength(MAX_PASSWORD_LENGTH)
  password: string;
}

/** `POST /console/api/users/invites` (owner). */
export class InviteUserBody {
  @ApiProperty({ example: 'sam@example.com', maxLength: MAX_EMAIL_LENGTH })
  @IsString()
  @MaxLength(MAX_EMAIL_LENGTH)
  @IsEmail()
  email: string;

  @ApiProperty({ enum: CONSOLE_ROLES })
  @IsIn(CONSOLE_ROLES)
  role: ConsoleRole;
}

/** `POST /admin/accounts/{account_id}/users` (operator): the role defaults to owner. */
export class OperatorInviteUserBody {
  @ApiProperty({ example: 'jane@example.com', maxLength: MAX_EMAIL_LENGTH })
  @IsString()
  @MaxLength(MAX_EMAIL_LENGTH)
  @IsEmail()
  email: string;

  @ApiPropertyOptional({ enum: CONSOLE_ROLES, default: 'owner' })
  @IsOmittable()
  @IsIn(CONSOLE_ROLES)
  role?: ConsoleRole;
}

/** `DELETE /console/api/users/{id}`: a user (`usr_...`) or a pending invite (`inv_...`). */
export class ConsoleUserIdParam {
  @IsString()
  @Matches(/^(usr|inv)_[0-9a-f]{24}$/, { message: 'id must be a user id (usr_...) or an invite id (inv_...)' })
  id: string;
}

/** `PATCH /console/api/users/{id}` (owner): a member's new role. */
export class ChangeUserRoleBody {
  @ApiProperty({ enum: CONSOLE_ROLES })
  @IsIn(CONSOLE_ROLES)
  role: ConsoleRole;
}

/** `PATCH /console/api/users/{id}`: a member (`usr_...`); an invite's role is changed by inviting again. */
export class ConsoleMemberIdParam {
  @IsString()
  @Matches(/^usr_[0-9a-f]{24}$/, { message: 'id must be a user id (usr_...)' })
  id: string;
}

/** `POST /console/api/password-resets`: who forgot their password. */
export class PasswordResetRequestBody {
  @ApiProperty({ example: 'jane@example.com', maxLength: MAX_EMAIL_LENGTH })
  @IsString()
  @MaxLength(MAX_EMAIL_LENGTH)
  @IsEmail()
  email: string;
}

/** `POST /console/api/password-resets/lookup`. */
export class PasswordResetTokenBody {
  @ApiProperty({ description: 'The token from the reset link (after `#token=`).' })
  @IsString()
  @MaxLength(MAX_TOKEN_LENGTH)
  token: string;
}

/** `POST /console/api/password-resets/complete`. */
export class CompletePasswordResetBody extends PasswordResetTokenBody {
  @ApiProperty({
    maxLength: MAX_PASSWORD_LENGTH,
    description: 'At least 12 characters, not the email address, hard to guess (the same rule as an invite).',
  })
  @IsString()
  @MaxLength(MAX_PASSWORD_LENGTH)
  password: string;
}

/** `/console/api/keys/{id}`. */
export class ConsoleKeyIdParam {
  @IsString()
  @Matches(/^key_[0-9a-f]{24}$/, { message: 'id must be a key id (key_...)' })
  id: string;
}

/** `GET /admin/email?to=`. */
export class ListEmailQuery {
  @ApiProperty({ example: 'jane@example.com' })
  @IsString()
  @MaxLength(MAX_EMAIL_LENGTH)
  @IsEmail()
  to: string;
}

// The answers of `/console/api/*` (docs/console/api.md) are classes, described like the public DTOs: the console's
// OpenAPI description is generated from them (tools/sdk/generate.mjs), and the console's typed client from it.

export class ConsoleSessionUser {
  @ApiProperty({ example: 'usr_0123456789abcdef01234567' }) id: string;
  @ApiProperty({ example: 'jane@example.com' }) email: string;
  @ApiProperty({ enum: CONSOLE_ROLES }) role: ConsoleRole;
}

export class ConsoleSessionAccount {
  @ApiProperty({ example: 'acct_0123456789abcdefghij' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: TIERS }) tier: Tier;
}

/** What sign-in, invite acceptance, password reset and `GET /console/api/session` answer. */
export class ConsoleSessionView {
  @ApiProperty({ type: ConsoleSessionUser }) user: ConsoleSessionUser;
  @ApiProperty({ type: ConsoleSessionAccount }) account: ConsoleSessionAccount;
  @ApiProperty({ description: 'Sent back as `X-CSRF-Token` on every POST, PUT, PATCH and DELETE of the session.' })
  csrf_token: string;
  @ApiProperty({
    enum: API_KEY_MODES,
    description: "`live`, or `test` while the session shows the account's test data (docs/adr/0087).",
  })
  mode: ApiKeyMode;
}

/** `GET /console/api/session-status` without a live session. */
export class ConsoleSignedOut {
  @ApiProperty({ type: Boolean, enum: [false] }) signed_in: false;
}

/** `GET /console/api/session-status` with a live session: the session, as `GET /console/api/session` answers it. */
export class ConsoleSignedIn extends ConsoleSessionView {
  @ApiProperty({ type: Boolean, enum: [true] }) signed_in: true;
}

/** `GET /console/api/session-status`: whether a live session came with the request, and if so the session. */
export type ConsoleSessionProbe = ConsoleSignedOut | ConsoleSignedIn;

export class ConsoleUserView {
  @ApiProperty({
    example: 'usr_0123456789abcdef01234567',
    description: 'A user (`usr_...`) or a pending invite (`inv_...`).',
  })
  id: string;
  @ApiProperty() email: string;
  @ApiProperty({ enum: CONSOLE_ROLES }) role: ConsoleRole;
  @ApiProperty({ enum: ['active', 'invited'] }) status: 'active' | 'invited';
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

/** `GET /console/api/users`: the account's people and pending invites. */
export class ConsoleUserList {
  @ApiProperty({ type: [ConsoleUserView] }) data: ConsoleUserView[];
}

export class ConsoleInviteView {
  @ApiProperty({ example: 'inv_0123456789abcdef01234567' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty({ enum: CONSOLE_ROLES }) role: ConsoleRole;
  @ApiProperty({ enum: ['invited'] }) status: 'invited';
  @ApiProperty({ format: 'date-time' }) expires_at: string;
}

/** `DELETE /console/api/users/{id}`. */
export class ConsoleUserRemoved {
  @ApiProperty({ type: Boolean, enum: [true] }) removed: true;
}

/** `POST /console/api/invites/lookup`: whom the invite link is for, to show before a password is chosen. */
export class ConsoleInviteLookup {
  @ApiProperty() email: string;
  @ApiProperty({ enum: CONSOLE_ROLES }) role: ConsoleRole;
  @ApiProperty() account_name: string;
  @ApiProperty({ format: 'date-time' }) expires_at: string;
}

/** `POST /console/api/password-resets`: the same sentence whether the address has a user or not. */
export class PasswordResetRequested {
  @ApiProperty() message: string;
}

/** `POST /console/api/password-resets/lookup`. */
export class PasswordResetLookup {
  @ApiProperty() email: string;
  @ApiProperty({ format: 'date-time' }) expires_at: string;
}

/** One of `GET /console/api/keys`: no secret, with its use. */
export class ConsoleKeyView {
  @ApiProperty({ example: 'key_5f0c2a9b1d3e4f5a6b7c8d9e' }) id: string;
  @ApiProperty({ enum: API_KEY_MODES }) mode: ApiKeyMode;
  @ApiProperty({ example: 'sk_live_5f0c', description: 'The start of the secret, to tell keys apart.' }) prefix: string;
  @ApiProperty({ type: [String] }) ip_allowlist: string[];
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'At most a minute stale.' })
  last_used_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) revoked_at: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The key this one was made to replace (rotate).' })
  replaces: string | null;
}

/** The active keys of each mode. */
export class ConsoleKeyCounts {
  @ApiProperty() live: number;
  @ApiProperty() test: number;
}

/** `GET /console/api/keys`: the keys the session's mode shows, and the active keys of each mode over all of them. */
export class ConsoleKeyList {
  @ApiProperty({ type: [ConsoleKeyView], description: 'Newest first, revoked keys included.' }) data: ConsoleKeyView[];
  @ApiProperty({ type: ConsoleKeyCounts }) active: ConsoleKeyCounts;
}

/** `POST /console/api/keys` and `/keys/{id}/rotate`: the secret, once. */
export class ConsoleKeyCreated extends ApiKeyCreated {
  @ApiProperty({ example: 'sk_live_5f0c' }) prefix: string;
  @ApiPropertyOptional({ description: 'Rotate only: the key this one replaces, which works until it is revoked.' })
  replaces?: string;
}

/** `GET /console/api/account`: the account's fields the console shows. */
export class ConsoleAccountView {
  @ApiProperty({ example: 'acct_0123456789abcdefghij' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: TIERS }) tier: Tier;
  @ApiProperty() number_limit: number;
  @ApiProperty({ type: AutoTopUp, nullable: true }) auto_top_up: AutoTopUp | null;
}

/** `GET /console/api/numbers/{id}/agent`: the settings and the greeting an empty greeting stands for. */
export class ConsoleAgentSettingsView extends AgentSettingsView {
  @ApiProperty({ description: 'What the agent says when `greeting` is null.' }) default_greeting: string;
}

export interface OperatorInviteView {
  id: string;
  email: string;
  role: ConsoleRole;
  invite_url: string;
  expires_at: string;
}

export interface EmailView {
  to: string;
  subject: string;
  body: string;
  sent_at: string;
}

export interface EmailList {
  data: EmailView[];
}
