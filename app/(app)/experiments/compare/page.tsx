import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { isAppError } from '@/lib/core/errors';
import { compareExperiments, parseCompareIds, type ExperimentComparison } from '@/lib/features/experiments';
import { parsePageParams } from '@/lib/features/query';
import { pageContext } from '@/lib/transports/pages/context';
import { CompareExperimentsView } from '@/components/datasets/CompareExperimentsView';
import { toSearchParams } from '../../traces/_lib/request';

export const metadata: Metadata = { title: 'Compare experiments' };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// GET /experiments/compare?ids=a,b[,…]&onlyDifferent=true - experiments of one dataset item by item
export default async function CompareExperimentsPage({ searchParams }: { searchParams: SearchParams }) {
  // Never prerendered: the build must not open the database.
  await connection();
  const { ctx } = await pageContext('/experiments/compare');
  const query = toSearchParams(await searchParams);
  const onlyDifferent = query.get('onlyDifferent') === 'true';
  let comparison: ExperimentComparison;
  try {
    comparison = await compareExperiments(ctx, parseCompareIds(query.get('ids')), { onlyDifferent, ...parsePageParams(query) });
  } catch (err) {
    if (!isAppError(err) || (err.code !== 'VALIDATION' && err.code !== 'NOT_FOUND')) throw err;
    return (
      <div className="mx-auto max-w-2xl py-16">
        <h1 className="text-xl font-semibold">Compare experiments</h1>
        <p role="alert" className="mt-3 text-red-800 dark:text-red-200">
          {err.message}
        </p>
        <Link href="/datasets" className="mt-6 inline-block font-medium text-accent hover:underline">
          ← Datasets
        </Link>
      </div>
    );
  }
  return <CompareExperimentsView comparison={comparison} ids={query.get('ids') ?? ''} onlyDifferent={onlyDifferent} />;
}
