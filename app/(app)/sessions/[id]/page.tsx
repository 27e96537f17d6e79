import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { cache } from 'react';
import { isAppError } from '@/lib/core/errors';
import { pageContext } from '@/lib/transports/pages/context';
import { pageParam } from '@/lib/transports/pages/params';
import { getSessionOrThrow, type SessionDetail } from '@/lib/features/sessions';
import { sessionHref } from '@/lib/client/traces';
import { HydrationMarker } from '@/components/ui/HydrationMarker';
import { SessionConversation, SessionTotals } from '@/components/sessions/SessionConversation';
import { CopyButton } from '@/components/ui/CopyButton';
import { SessionScores } from '@/components/scores/SessionScores';

type Params = Promise<{ id: string }>;

type Loaded = { detail: SessionDetail } | { invalid: string };

// One database read per request, shared by the page and its metadata; both are refused
// without the read scope (a redirect to sign-in), however the page is requested.
const loadSession = cache(async (id: string): Promise<Loaded> => {
  const { ctx } = await pageContext();
  try {
    return { detail: await getSessionOrThrow(ctx, id) };
  } catch (err) {
    if (isAppError(err) && err.code === 'NOT_FOUND') notFound();
    if (isAppError(err) && err.code === 'VALIDATION') return { invalid: err.message };
    throw err;
  }
});

/** The session id the URL names (Next hands pages their segments percent-encoded); 404 when it names none. */
async function sessionId(params: Params): Promise<string> {
  const id = pageParam((await params).id);
  if (id === null) notFound();
  return id;
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  await connection();
  const loaded = await loadSession(await sessionId(params));
  return { title: 'detail' in loaded ? `Session ${loaded.detail.session.id}` : 'Invalid session ID' };
}

// GET /sessions/{id} - one session as a conversation, turn by turn, with its totals
export default async function SessionPage({ params }: { params: Params }) {
  // Never prerendered: the build must not open the database.
  await connection();
  const loaded = await loadSession(await sessionId(params));
  if ('invalid' in loaded) {
    return (
      <div className="mx-auto max-w-2xl py-16">
        <p className="text-sm font-medium text-muted">400</p>
        <h1 className="mt-1 text-2xl font-semibold">{loaded.invalid}</h1>
        <p className="mt-3 text-muted">Session IDs are 1 to 256 characters long and hold no control characters.</p>
        <Link href="/sessions" className="mt-6 inline-block font-medium text-accent hover:underline">
          ← All sessions
        </Link>
      </div>
    );
  }
  const { detail } = loaded;
  return (
    <div className="flex flex-col gap-4">
      <HydrationMarker view="session" />
      <div>
        <Link href="/sessions" className="text-sm text-accent hover:underline">
          ← All sessions
        </Link>
        <div className="mt-1 flex flex-wrap items-center gap-3">
          <h1 className="min-w-0 text-xl font-semibold tracking-tight break-all">
            <span className="text-muted">Session</span> <span className="font-mono">{detail.session.id}</span>
          </h1>
          <CopyButton text={detail.session.id} label="Copy session ID" />
          <Link href={sessionHref(detail.session.id)} className="ml-auto text-sm text-accent hover:underline">
            Show as a trace list
          </Link>
        </div>
      </div>
      <SessionTotals session={detail.session} />
      <SessionScores sessionId={detail.session.id} />
      <SessionConversation detail={detail} />
    </div>
  );
}
