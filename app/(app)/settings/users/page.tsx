import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { connection } from 'next/server';
import { listUsers } from '@/lib/features/access';
import { settingsQueries } from '@/lib/client/settings';
import { SettingsDenied } from '@/components/settings/SettingsDenied';
import { UsersView } from '@/components/settings/UsersView';
import { requestTime, settingsAccess } from '../_lib/admin';

export const metadata: Metadata = { title: 'Users' };

// GET /settings/users - people, their roles, adding and removing them (admins only)
export default async function UsersPage() {
  // Never prerendered: the build must not open the database.
  await connection();
  const access = await settingsAccess('/settings/users');
  if ('denied' in access) return <SettingsDenied reason={access.denied} email={access.email} />;
  // The admin scope is a signed-in admin's (never open mode's): this only narrows the type.
  if (access.actor.kind !== 'user') return <SettingsDenied reason="open" />;

  const queryClient = new QueryClient();
  queryClient.setQueryData(settingsQueries.users().queryKey, await listUsers(access.ctx));
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <UsersView currentUserId={access.actor.userId} serverNow={requestTime()} />
    </HydrationBoundary>
  );
}
