'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ROLES, type Role } from '@/lib/core/access/scopes';
import { settingsQueries, settingsRequests, type UserRecord } from '@/lib/client/settings';
import { ErrorState, Spinner } from '@/components/ui/states';
import { RelativeTime, useHydrationMarker } from '@/components/ui/time';
import { AddUserForm } from './AddUserForm';
import { ConfirmDialog } from './ConfirmDialog';
import { errorText, rowDangerButton, td, th } from './styles';

const ROLE_LABEL: Record<Role, string> = { admin: 'Admin', viewer: 'Viewer' };

function signInMethods(user: UserRecord): string {
  if (user.signIn.length === 0) return '—';
  return user.signIn.map((m) => (m === 'sso' ? 'SSO' : m === 'password' ? 'Password' : m)).join(', ');
}

/** /settings/users: everyone who can sign in, their roles, and adding or removing people. */
export function UsersView({ currentUserId, serverNow }: { currentUserId: string; serverNow: number }) {
  useHydrationMarker('users');
  const queryClient = useQueryClient();
  const users = useQuery(settingsQueries.users());
  const [removing, setRemoving] = useState<UserRecord | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: settingsQueries.users().queryKey });

  const setRole = useMutation({
    mutationFn: (v: { user: UserRecord; role: Role }) => settingsRequests.setRole(v.user.id, v.role),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (user: UserRecord) => settingsRequests.removeUser(user.id),
    onSuccess: async () => {
      await refresh();
      setRemoving(null);
    },
  });

  return (
    <div className="flex max-w-5xl flex-col gap-6">
      <div>
        <h1 className="text-xl font-semibold tracking-tight">Users</h1>
        <p className="mt-1 text-muted">
          People who can sign in. Viewers read traces; admins also manage users and API keys. People who join through single
          sign-on start as viewers.
        </p>
      </div>

      <AddUserForm onAdded={refresh} />

      <section aria-labelledby="users-title" className="flex flex-col gap-2">
        <div className="flex items-center gap-3">
          <h2 id="users-title" className="text-base font-semibold">
            Everyone who can sign in
          </h2>
          {users.isFetching && <Spinner label="Loading users" className="text-muted" />}
        </div>
        {setRole.isError && (
          <p role="alert" className={errorText}>
            Could not change the role of {setRole.variables?.user.email}: {setRole.error.message}
          </p>
        )}
        {users.isError && !users.data ? (
          <ErrorState title="Could not load the users" message={users.error.message} onRetry={() => void users.refetch()} retrying={users.isFetching} />
        ) : (
          <div className="overflow-hidden rounded-lg border border-border">
            <table className="w-full border-collapse text-sm">
              <thead className="border-b border-border bg-surface">
                <tr>
                  <th scope="col" className={th}>Email</th>
                  <th scope="col" className={th}>Name</th>
                  <th scope="col" className={th}>Role</th>
                  <th scope="col" className={th}>Sign-in method</th>
                  <th scope="col" className={th}>Created</th>
                  <th scope="col" className={th}>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {(users.data ?? []).map((user) => {
                  const self = user.id === currentUserId;
                  const changing = setRole.isPending && setRole.variables?.user.id === user.id;
                  return (
                    <tr key={user.id} className="border-b border-border last:border-b-0">
                      <td className={`${td} font-medium`}>
                        {user.email}
                        {self && <span className="ml-1.5 text-xs font-normal text-muted">(you)</span>}
                      </td>
                      <td className={td}>{user.name}</td>
                      <td className={td}>
                        <span className="inline-flex items-center gap-2">
                          <select
                            aria-label={`Role of ${user.email}`}
                            value={changing ? setRole.variables.role : user.role}
                            // Demoting yourself would lock you out of this page; another admin can.
                            disabled={self || changing}
                            title={self ? 'Another admin can change your role' : undefined}
                            onChange={(e) => setRole.mutate({ user, role: e.target.value as Role })}
                            className="h-7 rounded-md border border-border-strong bg-bg px-1.5 text-sm disabled:opacity-60"
                          >
                            {ROLES.map((r) => (
                              <option key={r} value={r}>
                                {ROLE_LABEL[r]}
                              </option>
                            ))}
                          </select>
                          {changing && <Spinner label="Saving role" className="text-muted" />}
                        </span>
                      </td>
                      <td className={td}>{signInMethods(user)}</td>
                      <td className={`${td} text-muted`}>
                        <RelativeTime iso={user.createdAt} serverNow={serverNow} />
                      </td>
                      <td className={`${td} text-right`}>
                        {!self && (
                          <button
                            type="button"
                            aria-label={`Remove ${user.email}`}
                            onClick={() => {
                              remove.reset();
                              setRemoving(user);
                            }}
                            className={rowDangerButton}
                          >
                            Remove
                          </button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.email ?? ''}?`}
        confirmLabel="Remove user"
        pending={remove.isPending}
        error={remove.error?.message ?? null}
        onConfirm={() => removing && remove.mutate(removing)}
        onCancel={() => setRemoving(null)}
      >
        Their account is deleted and they are signed out at once.
      </ConfirmDialog>
    </div>
  );
}
