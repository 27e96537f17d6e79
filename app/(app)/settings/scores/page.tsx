import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { connection } from 'next/server';
import { listScoreConfigs } from '@/lib/features/scores';
import { scoreQueries } from '@/lib/client/scores';
import { ScoreConfigsView } from '@/components/settings/ScoreConfigsView';
import { SettingsDenied } from '@/components/settings/SettingsDenied';
import { settingsAccess } from '../_lib/admin';

export const metadata: Metadata = { title: 'Score configs' };

// GET /settings/scores - what a score of a name must be: list, create, edit, delete (admins; anyone in open mode)
export default async function ScoreConfigsPage() {
  // Never prerendered: the build must not open the database.
  await connection();
  const access = await settingsAccess('/settings/scores', 'configure');
  if ('denied' in access) return <SettingsDenied reason={access.denied} email={access.email} />;

  const queryClient = new QueryClient();
  queryClient.setQueryData(scoreQueries.configs().queryKey, await listScoreConfigs(access.ctx));
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <ScoreConfigsView />
    </HydrationBoundary>
  );
}
