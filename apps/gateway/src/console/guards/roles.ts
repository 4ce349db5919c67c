import { Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ServiceError, type ConsoleRole } from '@switchboard/contracts';
import type { FastifyRequest } from 'fastify';
import { isSafeMethod } from './csrf.guard';

export const ROLES_METADATA = 'console:roles';

export interface RoleRule {
  roles: readonly ConsoleRole[];
  /** What the route does, in words for the refusal: "create API keys". */
  action: string;
}

/** The roles allowed on a route, and what it does (for the message of a refusal). */
export const Roles = (roles: readonly ConsoleRole[], action: string) =>
  SetMetadata(ROLES_METADATA, { roles, action } satisfies RoleRule);

/**
 * The roles that read the whole console (keys, numbers, calls, money, people): the default of a reading route
 * without `@Roles()`. Not `staff`, who sees lost-and-found alone (docs/adr/0080).
 */
export const ANY_ROLE: readonly ConsoleRole[] = ['owner', 'developer', 'viewer'];

/** Every signed-in user, staff included: the session itself and signing out. */
export const EVERY_ROLE: readonly ConsoleRole[] = ['owner', 'developer', 'viewer', 'staff'];

/** Who reads the lost-and-found desk: every role. */
export const LOSTFOUND_READERS: readonly ConsoleRole[] = EVERY_ROLE;

/** Who logs items, files claims, reunites and disposes: all but viewers. */
export const LOSTFOUND_WRITERS: readonly ConsoleRole[] = ['owner', 'developer', 'staff'];

/**
 * Behind SessionGuard: the session's role must be one the route names with `@Roles()`. A route without `@Roles()`
 * is open to every role when it only reads (GET) and to owners alone when it changes something: a new route that
 * forgets its rule fails closed. Refused: 403 `forbidden`, naming the role and the action.
 */
@Injectable()
export class RoleGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const role = request.consoleSession?.role;
    const rule = this.reflector.getAllAndOverride<RoleRule | undefined>(ROLES_METADATA, [
      context.getHandler(),
      context.getClass(),
    ]) ?? {
      roles: isSafeMethod(request.method) ? ANY_ROLE : ['owner'],
      action: `${request.method} ${request.routeOptions?.url ?? request.url.split('?')[0]}`,
    };
    if (role && rule.roles.includes(role)) return true;
    throw new ServiceError(
      'forbidden',
      `A ${role ?? 'signed-out'} user cannot ${rule.action}; ${rule.roles.length === 1 ? `only an ${rule.roles[0]} can` : `it takes the role ${rule.roles.join(' or ')}`}. Ask an owner of the account.`,
    );
  }
}
