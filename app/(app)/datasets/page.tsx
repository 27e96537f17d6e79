import type { Metadata } from 'next';
import Link from 'next/link';
import { HydrationMarker } from '@/components/ui/HydrationMarker';
import { connection } from 'next/server';
import { allows } from '@/lib/core/access/decide';
import { formatDateTime, plural } from '@/lib/core/format';
import { listDatasets } from '@/lib/features/datasets';
import { parsePageParams } from '@/lib/features/query';
import { pageContext } from '@/lib/transports/pages/context';
import { CreateDatasetForm } from '@/components/datasets/CreateDatasetForm';
import { th, td } from '@/components/settings/styles';
import { toSearchParams } from '../traces/_lib/request';

export const metadata: Metadata = { title: 'Datasets' };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// GET /datasets - the datasets, newest first; create one (keys that ingest, admins, open mode)
export default async function DatasetsPage({ searchParams }: { searchParams: SearchParams }) {
  // Never prerendered: the build must not open the database.
  await connection();
  const { ctx } = await pageContext('/datasets');
  const page = await listDatasets(ctx, parsePageParams(toSearchParams(await searchParams)));
  return (
    <div className="flex flex-col gap-4">
      <HydrationMarker view="datasets" />
      <div className="flex flex-wrap items-baseline gap-3">
        <h1 className="text-xl font-semibold tracking-tight">Datasets</h1>
        <p className="text-sm text-muted">Cases to run an agent version over, and the experiments that ran them.</p>
      </div>
      {allows(ctx.principal, 'curate') && <CreateDatasetForm />}
      {page.total === 0 ? (
        <div className="rounded-md border border-dashed border-border px-6 py-12 text-center" data-testid="datasets-empty">
          <p className="font-medium">No datasets yet</p>
          <p className="mt-1 text-sm text-muted">
            Create one here or with <code className="font-mono">POST /api/datasets</code>, then add items by hand, from a file, or from a trace (&quot;Add to dataset&quot;).
          </p>
        </div>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-border">
          <table className="w-full min-w-[36rem] text-sm" data-testid="datasets-table">
            <thead className="bg-surface">
              <tr>
                <th className={th}>Name</th>
                <th className={th}>Description</th>
                <th className={`${th} text-right`}>Items</th>
                <th className={th}>Updated</th>
              </tr>
            </thead>
            <tbody>
              {page.datasets.map((d) => (
                <tr key={d.id} className="border-t border-border">
                  <td className={td}>
                    <Link href={`/datasets/${encodeURIComponent(d.name)}`} className="font-medium text-accent hover:underline">
                      {d.name}
                    </Link>
                  </td>
                  <td className={`${td} text-muted`}>{d.description ?? ''}</td>
                  <td className={`${td} text-right tabular`}>{d.itemCount}</td>
                  <td className={`${td} whitespace-nowrap text-muted`}>{formatDateTime(d.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page.totalPages > 1 && (
        <p className="text-sm text-muted">
          {plural(page.total, 'dataset')}, page {page.page} of {page.totalPages}
          {page.page < page.totalPages && (
            <Link href={`/datasets?page=${page.page + 1}`} className="ml-3 text-accent hover:underline">
              Next page →
            </Link>
          )}
        </p>
      )}
    </div>
  );
}
