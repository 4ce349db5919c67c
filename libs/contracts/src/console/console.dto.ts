import { ApiProperty, ApiPropertyOptional } from '../common/api-property';
import { IsOmittable } from '../common/validation';
import { IsEmail, IsIn, IsString, Matches, MaxLength } from 'class-validator';
import type { ApiKeyMode } from '../accounts/account-mode';

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

/** What sign-in, invite acceptance, password reset and `GET /console/api/session` answer. */
export interface ConsoleSessionView {
  user: { id: string; email: string; role: ConsoleRole };
  account: { id: string; name: string; tier: string };
  csrf_token: string;
  /** `live`, or `test` while the session shows the account's test data (docs/adr/0132). */
  mode: ApiKeyMode;
}

/** `GET /console/api/session-status`: whether a live session came with the request, and if so the session. */
export type ConsoleSessionProbe = { signed_in: false } | ({ signed_in: true } & ConsoleSessionView);

export interface ConsoleUserView {
  id: string;
  email: string;
  role: ConsoleRole;
  status: 'active' | 'invited';
  created_at: string;
}

export interface ConsoleInviteView {
  id: string;
  email: string;
  role: ConsoleRole;
  status: 'invited';
  expires_at: string;
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
