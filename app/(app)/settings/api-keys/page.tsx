import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { connection } from 'next/server';
import { listApiKeys } from '@/lib/features/access';
import { getApiKeyEntries } from '@/lib/core/config';
import { settingsQueries } from '@/lib/client/settings';
import { ApiKeysView } from '@/components/settings/ApiKeysView';
import { SettingsDenied } from '@/components/settings/SettingsDenied';
import { requestTime, settingsAccess } from '../_lib/admin';

export const metadata: Metadata = { title: 'API keys' };

// GET /settings/api-keys - keys for programs: create (shown once), list, revoke (admins only)
export default async function ApiKeysPage() {
  // Never prerendered: the build must not open the database.
  await connection();
  const access = await settingsAccess('/settings/api-keys');
  if ('denied' in access) return <SettingsDenied reason={access.denied} email={access.email} />;

  const queryClient = new QueryClient();
  queryClient.setQueryData(settingsQueries.apiKeys().queryKey, await listApiKeys(access.ctx));
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <ApiKeysView serverNow={requestTime()} configuredKeys={getApiKeyEntries().length} />
    </HydrationBoundary>
  );
}
