import { Injectable } from '@nestjs/common';
import { ServiceError, type ConsoleRole, type ConsoleUserView } from '@switchboard/contracts';
import { IdentityRepository } from './identity.repository';

/** The people of an account: members and pending invites; changing a member's role, removing one (docs/adr/0066). */
@Injectable()
export class UsersService {
  constructor(private readonly identity: IdentityRepository) {}

  async list(accountId: string): Promise<{ data: ConsoleUserView[] }> {
    const [users, invites] = await Promise.all([
      this.identity.usersOf(accountId),
      this.identity.pendingInvitesOf(accountId),
    ]);
    return {
      data: [
        ...users.map((u) => ({
          id: u.id,
          email: u.email,
          role: u.role,
          status: 'active' as const,
          created_at: u.created_at.toISOString(),
        })),
        ...invites.map((i) => ({
          id: i.id,
          email: i.email,
          role: i.role,
          status: 'invited' as const,
          created_at: i.created_at.toISOString(),
        })),
      ],
    };
  }

  /** A member's new role, seen by their sessions at their next request (docs/adr/0066). */
  async changeRole(accountId: string, userId: string, role: ConsoleRole): Promise<ConsoleUserView> {
    const outcome = await this.identity.changeRole(accountId, userId, role);
    if (outcome === 'not_found') throw new ServiceError('not_found', 'No user with that id on this account.');
    if (outcome === 'last_owner')
      throw new ServiceError(
        'last_owner',
        "This is the account's last owner: make another member an owner (or invite one, and let them accept) before changing this one's role.",
      );
    return {
      id: outcome.id,
      email: outcome.email,
      role: outcome.role,
      status: 'active',
      created_at: outcome.created_at.toISOString(),
    };
  }

  /** A user (their sessions end at once) or a pending invite (its link stops working). */
  async remove(accountId: string, id: string): Promise<void> {
    if (id.startsWith('inv_')) {
      if (!(await this.identity.revokeInvite(accountId, id)))
        throw new ServiceError('not_found', 'No pending invite with that id on this account.');
      return;
    }
    const outcome = await this.identity.removeUser(accountId, id);
    if (outcome === 'not_found') throw new ServiceError('not_found', 'No user with that id on this account.');
    if (outcome === 'last_owner')
      throw new ServiceError(
        'last_owner',
        "This is the account's last owner: invite another owner, and let them accept, before removing this one.",
      );
  }
}
