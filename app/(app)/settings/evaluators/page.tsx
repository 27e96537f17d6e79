import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { connection } from 'next/server';
import { listEvaluators } from '@/lib/features/evaluators';
import { evaluatorQueries } from '@/lib/client/evaluators';
import { EvaluatorsView } from '@/components/settings/EvaluatorsView';
import { SettingsDenied } from '@/components/settings/SettingsDenied';
import { settingsAccess } from '../_lib/admin';

export const metadata: Metadata = { title: 'Evaluators' };

// GET /settings/evaluators - rules and an LLM judge that score runs: list, create, try on a trace, enable, delete (admins; anyone in open mode)
export default async function EvaluatorsPage() {
  // Never prerendered: the build must not open the database.
  await connection();
  const access = await settingsAccess('/settings/evaluators', 'configure');
  if ('denied' in access) return <SettingsDenied reason={access.denied} email={access.email} />;

  const queryClient = new QueryClient();
  queryClient.setQueryData(evaluatorQueries.list().queryKey, await listEvaluators(access.ctx));
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <EvaluatorsView judgeConfigured={access.ctx.config.evaluatorConfig.judge !== undefined} />
    </HydrationBoundary>
  );
}
