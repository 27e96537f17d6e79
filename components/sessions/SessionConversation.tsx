import type { ReactNode } from 'react';
import Link from 'next/link';
import { formatCost, formatDuration, formatTokens, plural, toMillis } from '@/lib/core/format';
import { traceHref } from '@/lib/client/traces';
import type { SessionDetail, SessionTrace } from '@/lib/features/sessions/shared';
import { StatusBadge } from '@/components/ui/badges';
import { DateTime } from '@/components/ui/time';
import { ChatPayload } from '@/components/traces/detail/chat/ChatPayload';

function latency(trace: SessionTrace): string {
  const start = toMillis(trace.startedAt);
  const end = toMillis(trace.endedAt);
  if (start !== null && end !== null) return formatDuration(end - start);
  return trace.status === 'RUNNING' ? 'still running' : '—';
}

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="font-medium tabular">{children}</dd>
    </div>
  );
}

/** The session's figures. */
export function SessionTotals({ session }: { session: SessionDetail['session'] }) {
  const first = toMillis(session.firstStartedAt);
  const last = toMillis(session.lastStartedAt);
  return (
    <dl className="grid grid-cols-2 gap-x-6 gap-y-2 rounded-md border border-border bg-surface px-4 py-3 text-sm sm:grid-cols-3 lg:grid-cols-6" data-testid="session-totals">
      <Figure label="Traces">{session.traces}</Figure>
      <Figure label="Errors">
        <span className={session.errorTraces > 0 ? 'text-red-800 dark:text-red-200' : ''}>{session.errorTraces}</span>
      </Figure>
      <Figure label="Cost">{formatCost(session.totalCost)}</Figure>
      <Figure label="Tokens">{formatTokens(session.totalTokens)}</Figure>
      <Figure label="First activity">
        <DateTime iso={session.firstStartedAt} />
      </Figure>
      <Figure label="Active over">{first !== null && last !== null ? formatDuration(last - first) : '—'}</Figure>
    </dl>
  );
}

function Turn({ trace, n }: { trace: SessionTrace; n: number }) {
  return (
    <li className="rounded-lg border border-border" data-testid="session-turn">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-border bg-surface px-4 py-2 text-sm">
        <span className="text-xs font-semibold text-muted">Turn {n}</span>
        <Link href={traceHref(trace.id)} className="min-w-0 truncate font-medium text-accent hover:underline" title="Open this trace">
          {trace.name}
        </Link>
        <StatusBadge status={trace.status} />
        <span className="ml-auto flex flex-wrap items-center gap-x-3 text-xs text-muted tabular">
          <DateTime iso={trace.startedAt} />
          <span title="From the trace's start to its end">Latency {latency(trace)}</span>
          <span>Cost {formatCost(trace.totalCost)}</span>
          <span>Tokens {formatTokens(trace.totalTokens)}</span>
        </span>
      </div>
      <div className="space-y-3 p-4">
        {trace.input === null && trace.output === null ? (
          <p className="text-sm text-muted">No input or output recorded for this trace.</p>
        ) : (
          <>
            {trace.input !== null && <ChatPayload label="Input" value={trace.input} side="input" />}
            {trace.output !== null && <ChatPayload label="Output" value={trace.output} side="output" />}
          </>
        )}
      </div>
    </li>
  );
}

/** The session turn by turn, oldest first: each trace's input and output as a chat. */
export function SessionConversation({ detail }: { detail: SessionDetail }) {
  return (
    <section aria-label="Conversation" className="space-y-3">
      <h2 className="text-sm font-semibold text-muted">{plural(detail.traces.length, 'turn')}, oldest first</h2>
      <ol className="space-y-4">
        {detail.traces.map((t, i) => (
          <Turn key={t.id} trace={t} n={i + 1} />
        ))}
      </ol>
    </section>
  );
}
