import type { Metadata } from 'next';
import Link from 'next/link';
import { HydrationMarker } from '@/components/ui/HydrationMarker';
import { connection } from 'next/server';
import { allows } from '@/lib/core/access/decide';
import { isAppError } from '@/lib/core/errors';
import { plural } from '@/lib/core/format';
import { getDataset, listItems } from '@/lib/features/datasets';
import { datasetExperiments } from '@/lib/features/experiments';
import { parsePageParams } from '@/lib/features/query';
import { pageContext } from '@/lib/transports/pages/context';
import { pageParam } from '@/lib/transports/pages/params';
import { ExperimentsTable } from '@/components/datasets/ExperimentsTable';
import { AddItemForm, UploadItemsForm } from '@/components/datasets/ItemForms';
import { th, td } from '@/components/settings/styles';
import { toSearchParams } from '../../traces/_lib/request';

export const metadata: Metadata = { title: 'Dataset' };

type Props = { params: Promise<{ name: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const preview = (value: unknown) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === undefined ? '' : text.length > 160 ? `${text.slice(0, 159)}…` : text;
};

// GET /datasets/{name} - a dataset's items and experiments; add items by hand or from a file
export default async function DatasetPage({ params, searchParams }: Props) {
  // Never prerendered: the build must not open the database.
  await connection();
  const raw = (await params).name;
  const { ctx } = await pageContext(`/datasets/${raw}`);
  const name = pageParam(raw);
  let content;
  try {
    if (name === null) throw new Error('undecodable');
    const paging = parsePageParams(toSearchParams(await searchParams));
    const [dataset, items, experiments] = await Promise.all([getDataset(ctx, name), listItems(ctx, name, paging), datasetExperiments(ctx, name)]);
    content = { dataset, items, experiments };
  } catch (err) {
    if (!(err instanceof Error && err.message === 'undecodable') && !(isAppError(err) && (err.code === 'NOT_FOUND' || err.code === 'VALIDATION'))) throw err;
    return (
      <div className="mx-auto max-w-2xl py-16">
        <h1 className="text-xl font-semibold">Dataset not found</h1>
        <p className="mt-3 text-muted">{isAppError(err) ? err.message : 'This address names no dataset.'}</p>
        <Link href="/datasets" className="mt-6 inline-block font-medium text-accent hover:underline">
          ← All datasets
        </Link>
      </div>
    );
  }
  const { dataset, items, experiments } = content;
  const curate = allows(ctx.principal, 'curate');
  return (
    <div className="flex flex-col gap-6">
      <HydrationMarker view="dataset" />
      <div>
        <Link href="/datasets" className="text-sm text-accent hover:underline">
          ← All datasets
        </Link>
        <h1 className="mt-1 text-xl font-semibold tracking-tight break-all">
          <span className="text-muted">Dataset</span> <span data-testid="dataset-name">{dataset.name}</span>
        </h1>
        {dataset.description && <p className="mt-1 text-muted">{dataset.description}</p>}
        <p className="mt-1 text-sm text-muted">
          {plural(dataset.itemCount, 'item')}, {plural(experiments.length, 'experiment')}
        </p>
      </div>

      <section aria-labelledby="experiments-heading" className="flex flex-col gap-2">
        <h2 id="experiments-heading" className="text-base font-semibold">
          Experiments
        </h2>
        {experiments.length === 0 ? (
          <p className="text-sm text-muted">
            None yet: create one with <code className="font-mono">POST /api/experiments</code> and send each run&apos;s trace with{' '}
            <code className="font-mono">experiment: {'{'}id, itemId{'}'}</code> (docs/evaluation.md).
          </p>
        ) : (
          <ExperimentsTable experiments={experiments} />
        )}
      </section>

      <section aria-labelledby="items-heading" className="flex flex-col gap-2">
        <h2 id="items-heading" className="text-base font-semibold">
          Items
        </h2>
        {curate && (
          <div className="grid gap-4 rounded-lg border border-border bg-surface p-4 lg:grid-cols-2">
            <AddItemForm dataset={dataset.name} />
            <UploadItemsForm dataset={dataset.name} />
          </div>
        )}
        {items.total === 0 ? (
          <p className="text-sm text-muted">No items yet.</p>
        ) : (
          <div className="overflow-x-auto rounded-lg border border-border">
            <table className="w-full min-w-[40rem] table-fixed text-sm" data-testid="items-table">
              <thead className="bg-surface">
                <tr>
                  <th className={`${th} w-40`}>Item</th>
                  <th className={th}>Input</th>
                  <th className={th}>Expected output</th>
                  <th className={`${th} w-28`}>Expected decisions</th>
                </tr>
              </thead>
              <tbody>
                {items.items.map((item) => (
                  <tr key={item.id} className={`border-t border-border ${item.archived ? 'opacity-60' : ''}`} data-item={item.id}>
                    <td className={`${td} truncate font-mono text-xs`} title={item.id}>
                      {item.id}
                      {item.archived && <span className="ml-1 text-muted">(archived)</span>}
                      {item.sourceTraceId && (
                        <Link href={`/traces/${encodeURIComponent(item.sourceTraceId)}`} className="block font-sans text-accent hover:underline">
                          source trace
                        </Link>
                      )}
                    </td>
                    <td className={`${td} font-mono text-xs break-words`}>{preview(item.input)}</td>
                    <td className={`${td} font-mono text-xs break-words`}>{item.expectedOutput === null ? <span className="text-muted">—</span> : preview(item.expectedOutput)}</td>
                    <td className={`${td} text-xs`}>{item.expectedDecisions?.length ?? 0}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {items.totalPages > 1 && (
          <p className="flex gap-3 text-sm text-muted">
            Page {items.page} of {items.totalPages}
            {items.page > 1 && (
              <Link href={`?page=${items.page - 1}`} className="text-accent hover:underline">
                ← Previous
              </Link>
            )}
            {items.page < items.totalPages && (
              <Link href={`?page=${items.page + 1}`} className="text-accent hover:underline">
                Next →
              </Link>
            )}
          </p>
        )}
      </section>
    </div>
  );
}
