import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import type { ServiceContext } from '@/lib/core/context';
import { isAppError } from '@/lib/core/errors';
import { pageContext } from '@/lib/transports/pages/context';
import { successfulMatch } from '@/lib/features/paths';
import { getTraceOutlineOrThrow } from '@/lib/features/traces';
import type { TraceOutline } from '@/lib/features/traces/shared';
import { CompareView } from '@/components/traces/compare/CompareView';

export const metadata: Metadata = { title: 'Compare runs' };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v) || undefined;

// GET /traces/compare?a=…&b=… - two runs side by side from their first difference; without b, a's closest successful run
export default async function ComparePage({ searchParams }: { searchParams: SearchParams }) {
  await connection();
  const { ctx } = await pageContext();
  const params = await searchParams;
  const a = one(params.a);
  const b = one(params.b);
  if (!a) return <Problem title="Choose two runs to compare" message="Open a trace and pick “Compare with a successful run”, or link to /traces/compare?a=<id>&b=<id>." />;
  const loaded = await load(ctx, a, b);
  if ('problem' in loaded) return <Problem {...loaded.problem} />;
  return <CompareView a={loaded.a} b={loaded.b} picked={loaded.picked} />;
}

type Loaded = { a: TraceOutline; b: TraceOutline; picked: boolean } | { problem: { title: string; message: string; back?: string } };

async function load(ctx: ServiceContext, a: string, b: string | undefined): Promise<Loaded> {
  try {
    let picked = false;
    if (!b) {
      const match = await successfulMatch(ctx, a);
      if (!match.traceId) return { problem: { title: 'No successful run to compare with', message: 'No other run of this name completed.', back: a } };
      b = match.traceId;
      picked = true;
    }
    // Outlines: the spans without their payloads (a model call's are read when it is opened).
    const [left, right] = await Promise.all([getTraceOutlineOrThrow(ctx, a, 'columns'), getTraceOutlineOrThrow(ctx, b, 'columns')]);
    return { a: left, b: right, picked };
  } catch (err) {
    if (isAppError(err) && err.code === 'NOT_FOUND') notFound();
    if (isAppError(err) && err.code === 'VALIDATION') return { problem: { title: 'These runs cannot be compared', message: err.message } };
    throw err;
  }
}

function Problem({ title, message, back }: { title: string; message: string; back?: string }) {
  return (
    <div className="mx-auto max-w-2xl py-16">
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="mt-3 text-muted">{message}</p>
      <Link href={back ? `/traces/${encodeURIComponent(back)}` : '/traces'} className="mt-6 inline-block font-medium text-accent hover:underline">
        {back ? '← Back to the trace' : '← Back to all traces'}
      </Link>
    </div>
  );
}
