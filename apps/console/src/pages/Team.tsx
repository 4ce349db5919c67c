import { useState, type FormEvent } from 'react';
import type { ConsoleRole, ConsoleUserView } from '@switchboard/contracts';
import { api } from '../api';
import {
  Button,
  ConfirmButton,
  Field,
  Listing,
  Notice,
  PageHeader,
  StatusBadge,
  messageOf,
  useFormSend,
  useLoad,
} from '../components/ui';
import { formatTime, humanize } from '../format';
import { roleReason, useSignedIn } from '../session';

const ROLES: { value: ConsoleRole; label: string; can: string }[] = [
  {
    value: 'staff',
    label: 'Staff',
    can: 'uses the lost-and-found desk only; sees no keys, numbers, calls, billing or team',
  },
  { value: 'viewer', label: 'Viewer', can: 'sees everything, changes nothing' },
  { value: 'developer', label: 'Developer', can: 'manages keys, numbers, webhooks and lost-and-found; reads billing' },
  { value: 'owner', label: 'Owner', can: 'everything, including billing and the team' },
];

export function TeamPage() {
  const { can, role, user } = useSignedIn();
  const mayManage = can('manage_team');
  const members = useLoad(() => api.GET('/console/api/users'), []);
  const [email, setEmail] = useState('');
  const [newRole, setNewRole] = useState<ConsoleRole>('developer');
  const { busy, failure, send } = useFormSend(['email', 'role']);
  const [notice, setNotice] = useState<string>();

  const invite = async (event: FormEvent) => {
    event.preventDefault();
    setNotice(undefined);
    await send(async () => {
      const invited = await api.POST('/console/api/users/invites', { body: { email: email.trim(), role: newRole } });
      setNotice(`Invitation sent to ${invited.email}. The link in it works until ${formatTime(invited.expires_at)}.`);
      setEmail('');
      members.reload();
    });
  };

  const [roleFailure, setRoleFailure] = useState<string>();
  const [changing, setChanging] = useState<string>();

  /** An owner changes a member's role: their sessions see it at their next request. */
  const changeRole = async (member: ConsoleUserView, role: ConsoleRole) => {
    setChanging(member.id);
    setRoleFailure(undefined);
    setNotice(undefined);
    try {
      const changed = await api.PATCH('/console/api/users/{id}', {
        params: { path: { id: member.id } },
        body: { role },
      });
      setNotice(`${changed.email} is now ${article(changed.role)} ${humanize(changed.role).toLowerCase()}.`);
      // The select is bound to the member's role: without this it shows the old role until the reload lands.
      members.replace((list) => ({ ...list, data: list.data.map((m) => (m.id === changed.id ? changed : m)) }));
      members.reload();
    } catch (error) {
      setRoleFailure(messageOf(error));
    } finally {
      setChanging(undefined);
    }
  };

  // The server refuses to remove or demote the account's last owner (409 last_owner): the page does not offer it.
  const activeOwners = members.data?.data.filter((m) => m.role === 'owner' && m.status === 'active').length ?? 0;
  const isLastOwner = (member: ConsoleUserView) =>
    member.role === 'owner' && member.status === 'active' && activeOwners <= 1;

  const remove = async (member: ConsoleUserView) => {
    await api.DELETE('/console/api/users/{id}', { params: { path: { id: member.id } } });
    setNotice(`${member.email} was removed from the account.`);
    members.reload();
  };

  return (
    <section>
      <PageHeader title="Team" description="The people who can sign in to this account's console." />
      {!mayManage ? <Notice tone="info">{roleReason(role, 'manage_team')}</Notice> : null}
      {notice ? <Notice tone="success">{notice}</Notice> : null}
      {roleFailure ? <Notice tone="error">{roleFailure}</Notice> : null}

      {mayManage ? (
        <form className="card" onSubmit={(event) => void invite(event)} noValidate aria-labelledby="invite-title">
          <h2 id="invite-title">Invite someone</h2>
          {failure?.message ? <Notice tone="error">{failure.message}</Notice> : null}
          <div className="grid-2">
            <Field
              label="Email"
              name="email"
              type="email"
              autoComplete="off"
              required
              value={email}
              onChange={setEmail}
              error={failure?.fields['email']}
            />
            <div className={`field${failure?.fields.role ? ' field--invalid' : ''}`}>
              <label htmlFor="invite-role">Role</label>
              <select
                id="invite-role"
                name="role"
                value={newRole}
                onChange={(event) => setNewRole(event.target.value as ConsoleRole)}
                aria-describedby="invite-role-hint"
              >
                {ROLES.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
              <p className="hint" id="invite-role-hint">
                {ROLES.find((option) => option.value === newRole)?.label}:{' '}
                {ROLES.find((option) => option.value === newRole)?.can}.
              </p>
              {failure?.fields.role ? <p className="field-error">{failure.fields.role}</p> : null}
            </div>
          </div>
          <div className="actions">
            <Button type="submit" variant="primary" busy={busy}>
              Send invitation
            </Button>
          </div>
        </form>
      ) : null}

      <h2>Members</h2>
      <Listing
        load={members}
        rows={members.data?.data}
        what="the team"
        empty="Nobody yet."
        caption="People in this account"
        testId="team-table"
        rowKey={(member) => member.id}
        columns={[
          {
            header: 'Email',
            cell: (member) => (
              <span>
                {member.email}
                {member.id === user.id ? <span className="muted"> (you)</span> : null}
              </span>
            ),
          },
          {
            header: 'Role',
            cell: (member) =>
              mayManage && member.status === 'active' && member.id !== user.id && !isLastOwner(member) ? (
                <select
                  name="role"
                  aria-label={`Role of ${member.email}`}
                  value={member.role}
                  disabled={changing === member.id}
                  aria-busy={changing === member.id || undefined}
                  onChange={(event) => void changeRole(member, event.target.value as ConsoleRole)}
                >
                  {ROLES.map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </select>
              ) : (
                humanize(member.role)
              ),
          },
          { header: 'Status', cell: (member) => <StatusBadge status={member.status} /> },
          { header: 'Since', cell: (member) => formatTime(member.created_at) },
          mayManage && {
            header: 'Actions',
            hideHeader: true,
            className: 'row-actions',
            cell: (member) =>
              isLastOwner(member) ? (
                <span className="muted" data-testid="last-owner">
                  Last owner
                </span>
              ) : (
                <ConfirmButton
                  label="Remove"
                  accessibleLabel={`Remove ${member.email}`}
                  title={`Remove ${member.email}?`}
                  body={
                    <p>
                      {member.status === 'invited'
                        ? 'Their invitation link stops working.'
                        : 'They are signed out everywhere and cannot sign in to this account any more.'}
                    </p>
                  }
                  confirmLabel="Remove"
                  onConfirm={() => remove(member)}
                />
              ),
          },
        ]}
      />
    </section>
  );
}

function article(role: ConsoleRole): string {
  return role === 'owner' ? 'an' : 'a';
}
