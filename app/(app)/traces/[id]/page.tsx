import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { cache } from 'react';
import { isAppError } from '@/lib/core/errors';
import { pageContext } from '@/lib/transports/pages/context';
import { pageParam } from '@/lib/transports/pages/params';
import { traceQueries } from '@/lib/client/traces';
import { getTraceOutlineJsonOrThrow } from '@/lib/features/traces';
import type { TraceOutline, TraceRecord } from '@/lib/features/traces/shared';
import { TraceDetailView } from '@/components/traces/detail/TraceDetailView';
import { requestTime } from '../_lib/request';

type Params = Promise<{ id: string }>;

type Loaded = { trace: TraceRecord; outline: TraceOutline | null } | { invalid: true; message: string };

// Up to this many spans, the outline rides in the page (the tree shows at first paint);
// a larger trace's outline would swell the HTML past ~200 KB, so the browser fetches it
// (GET /api/traces/{id}/outline), asked for in the document's head (TraceDetailView's preload): the request runs
// while the page's code loads and hydrates, and the page's own fetch takes its answer.
const INLINE_OUTLINE_SPANS = 500;

// One database read per request, shared by the page and its metadata; both are refused
// without the read scope (a redirect to sign-in), however the page is requested.
const loadTrace = cache(async (id: string): Promise<Loaded> => {
  const { ctx } = await pageContext();
  try {
    // A trace with the id "export" is shadowed by GET /api/traces/export: its outline always rides along.
    const outline = await getTraceOutlineJsonOrThrow(ctx, id, { maxSpans: id === 'export' ? undefined : INLINE_OUTLINE_SPANS });
    const parsed = JSON.parse(outline.json) as TraceRecord;
    return { trace: parsed, outline: outline.complete ? (parsed as TraceOutline) : null };
  } catch (err) {
    if (isAppError(err) && err.code === 'NOT_FOUND') notFound();
    if (isAppError(err) && err.code === 'VALIDATION') return { invalid: true, message: err.message };
    throw err;
  }
});

/** The trace id the URL names (Next hands pages their segments percent-encoded); 404 when it names none. */
async function traceId(params: Params): Promise<string> {
  const id = pageParam((await params).id);
  if (id === null) notFound();
  return id;
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  await connection();
  const loaded = await loadTrace(await traceId(params));
  return { title: 'trace' in loaded ? loaded.trace.name : 'Invalid trace ID' };
}

// GET /traces/{id} - one trace: header, span tree on a timeline, decisions, events
export default async function TracePage({ params }: { params: Params }) {
  // Never prerendered: the build must not open the database.
  await connection();
  const id = await traceId(params);
  const loaded = await loadTrace(id);
  if ('invalid' in loaded) return <InvalidTraceId id={id} message={loaded.message} />;

  const queryClient = new QueryClient();
  if (loaded.outline) queryClient.setQueryData(traceQueries.detail(id).queryKey, loaded.outline);
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <TraceDetailView id={id} serverNow={requestTime()} />
    </HydrationBoundary>
  );
}

function InvalidTraceId({ id, message }: { id: string; message: string }) {
  const shown = id.length > 80 ? `${id.slice(0, 80)}…` : id;
  return (
    <div className="mx-auto max-w-2xl py-16">
      <p className="text-sm font-medium text-muted">400</p>
      <h1 className="mt-1 text-2xl font-semibold">{message}</h1>
      <p className="mt-3 text-muted">
        <code className="rounded bg-surface-2 px-1 font-mono break-all text-fg">{JSON.stringify(shown)}</code> cannot be a
        trace ID: IDs are 1 to 256 characters long and hold no control characters. Check the link you followed.
      </p>
      <Link href="/traces" className="mt-6 inline-block font-medium text-accent hover:underline">
        ← Back to all traces
      </Link>
    </div>
  );
}
