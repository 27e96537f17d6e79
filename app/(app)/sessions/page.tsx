import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { isAppError } from '@/lib/core/errors';
import { pageContext } from '@/lib/transports/pages/context';
import { listSessions, parseSessionListParams, type SessionList, type SessionListParams } from '@/lib/features/sessions';
import { HydrationMarker } from '@/components/ui/HydrationMarker';
import { SessionTable } from '@/components/sessions/SessionTable';
import { SessionFilters } from '@/components/sessions/SessionFilters';
import { TIME_RANGE_LABELS } from '@/lib/client/list-filters';
import { requestTime, toSearchParams } from '../traces/_lib/request';

export const metadata: Metadata = { title: 'Sessions' };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// GET /sessions - sessions by latest activity, paginated; filters from the URL as the API reads them
export default async function SessionsPage({ searchParams }: { searchParams: SearchParams }) {
  // Never prerendered: the build must not open the database.
  await connection();
  const { ctx } = await pageContext();
  let params: SessionListParams;
  let list: SessionList;
  try {
    params = parseSessionListParams(toSearchParams(await searchParams));
    list = await listSessions(ctx, params);
  } catch (err) {
    if (!isAppError(err) || err.code !== 'VALIDATION') throw err;
    return (
      <div className="mx-auto max-w-2xl py-16">
        <h1 className="text-xl font-semibold">Sessions</h1>
        <p role="alert" className="mt-3 text-red-800 dark:text-red-200">
          {err.message}
        </p>
        <Link href="/sessions" className="mt-6 inline-block font-medium text-accent hover:underline">
          Show all sessions
        </Link>
      </div>
    );
  }
  const filtered =
    params.userId !== undefined || params.from !== undefined || params.to !== undefined || params.range !== undefined || params.search !== undefined || params.status !== undefined;
  return (
    <div className="flex flex-col gap-4">
      <HydrationMarker view="sessions" />
      <div className="flex flex-wrap items-baseline gap-3">
        <h1 className="text-xl font-semibold tracking-tight">Sessions</h1>
        <p className="text-sm text-muted">Traces that share a session ID, by latest activity.</p>
      </div>
      <SessionFilters key={JSON.stringify(params)} params={params} />
      {filtered && (
          <p className="-mt-1 text-sm" data-testid="sessions-active-filters">
            {params.search !== undefined && (
              <span className="mr-2">
                ID contains <code className="font-mono text-xs">{params.search}</code>
              </span>
            )}
            {params.status && <span className="mr-2">Status {params.status === 'ERROR' ? 'has an error' : params.status.toLowerCase()}</span>}
            {params.range && <span className="mr-2">Latest activity: {TIME_RANGE_LABELS[params.range].toLowerCase()}</span>}
            {params.userId !== undefined && (
              <span className="mr-2">
                User <code className="font-mono text-xs">{params.userId}</code>
              </span>
            )}
            {params.from && <span className="mr-2">from {params.from}</span>}
            {params.to && <span className="mr-2">to {params.to}</span>}
            <Link href="/sessions" className="text-accent hover:underline">
              Clear
            </Link>
          </p>
      )}
      {list.total === 0 ? (
        <div className="rounded-md border border-dashed border-border px-6 py-12 text-center">
          <p className="font-medium">No sessions{filtered ? ' match' : ' yet'}</p>
          <p className="mt-1 text-sm text-muted">
            Traces sent with a <code className="font-mono">sessionId</code> (or an OTLP <code className="font-mono">session.id</code>) are grouped here,
            one row per session.
          </p>
        </div>
      ) : (
        <SessionTable list={list} params={params} serverNow={requestTime()} />
      )}
    </div>
  );
}
