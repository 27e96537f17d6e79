'use client';

import Link, { useLinkStatus } from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, useTransition, type KeyboardEvent, type MouseEvent } from 'react';
import { formatCost, formatDuration, formatTokens, toMillis } from '@/lib/format';
import { sessionHref, traceHref, traceMatchHref } from '@/lib/queries/traces';
import type { SearchMatch, SortField, SortOrder, TraceListItem } from '@/lib/traces/types';
import { Highlight } from '@/components/ui/Highlight';
import { StatusBadge, Tag } from '@/components/ui/badges';
import { RelativeTime, useNow } from '@/components/ui/time';
import { Spinner } from '@/components/ui/states';

// Column widths are fixed so that nothing moves when rows arrive or change; the name
// takes what is left (about 180 px at a 1024 px window, 350 px at 1280 px).
export const COLUMNS = [
  { key: 'name', label: 'Name', width: '' },
  { key: 'status', label: 'Status', width: 'w-[108px]' },
  { key: 'session', label: 'Session', width: 'w-[108px]' },
  { key: 'tags', label: 'Tags', width: 'w-[120px] xl:w-[190px]' },
  { key: 'started', label: 'Started', width: 'w-[88px]', sort: 'startedAt' },
  { key: 'duration', label: 'Duration', width: 'w-[80px]', numeric: true, sort: 'duration' },
  { key: 'cost', label: 'Cost', width: 'w-[70px]', numeric: true, sort: 'cost' },
  { key: 'tokens', label: 'Tokens', width: 'w-[64px]', numeric: true },
  { key: 'decisions', label: 'Decisions', width: 'w-[68px]', numeric: true, title: 'Decision points' },
  { key: 'spans', label: 'Spans', width: 'w-[50px]', numeric: true },
  { key: 'events', label: 'Events', width: 'w-[54px]', numeric: true },
] as const;

function Duration({ trace, serverNow }: { trace: TraceListItem; serverNow: number }) {
  const now = useNow(serverNow);
  if (trace.totalDuration !== null) return <>{formatDuration(trace.totalDuration)}</>;
  const start = toMillis(trace.startedAt);
  const end = toMillis(trace.endedAt);
  if (start !== null && end !== null) {
    return <span title="From the start and end times (no total recorded)">{formatDuration(end - start)}</span>;
  }
  if (trace.status === 'RUNNING' && start !== null) {
    return (
      <span className="text-muted italic" title="Still running: time since it started">
        {formatDuration(Math.max(0, now - start))}
      </span>
    );
  }
  return <span className="text-muted">—</span>;
}

function Tags({ tags }: { tags: string[] }) {
  if (tags.length === 0) return <span className="text-muted">—</span>;
  // One tag fits a narrow window, two a wide one; the rest are counted.
  return (
    <div className="flex min-w-0 items-center gap-1" title={tags.join(', ')}>
      <Tag className="min-w-0 shrink">{tags[0]}</Tag>
      {tags.length > 1 && (
        <span className="hidden min-w-0 shrink xl:flex">
          <Tag>{tags[1]}</Tag>
        </span>
      )}
      {tags.length > 1 && (
        <span className={`shrink-0 text-xs text-muted ${tags.length === 2 ? 'xl:hidden' : ''}`}>
          <span className="xl:hidden">+{tags.length - 1}</span>
          {tags.length > 2 && <span className="hidden xl:inline">+{tags.length - 2}</span>}
        </span>
      )}
      <span className="sr-only">{tags.length > 1 ? `Tags: ${tags.join(', ')}` : ''}</span>
    </div>
  );
}

/** A spinner beside a trace link while its page loads (the detail page is not streamed: its 404 must be a real one). */
function LinkPending() {
  const { pending } = useLinkStatus();
  return pending ? <Spinner className="ml-1.5 shrink-0 text-muted" label="Opening trace" /> : null;
}

const MATCH_KIND: Record<SearchMatch['kind'], string> = { trace: 'Trace', span: 'Span', decision: 'Decision', event: 'Event' };

/** Where a full-text search found its term in the trace: the first place, and how many more. */
function MatchLine({ matches, q }: { matches: SearchMatch[]; q: string }) {
  const [first, ...more] = matches;
  if (!first) return null;
  return (
    <span data-match={`${first.kind}:${first.id}`} className="block truncate text-xs text-muted" title={first.snippet}>
      <span className="font-medium">
        {MATCH_KIND[first.kind]} {first.field}:
      </span>{' '}
      <Highlight text={first.snippet} term={q} />
      {more.length > 0 && <span className="ml-1">(+{more.length} more)</span>}
    </span>
  );
}

function Count({ n }: { n: number }) {
  return <span className={n === 0 ? 'text-muted' : ''}>{formatTokens(n)}</span>;
}

export function TraceTable({
  traces,
  serverNow,
  busy,
  onSession,
  q,
  sort = 'startedAt',
  order = 'desc',
  onSort,
}: {
  traces: TraceListItem[];
  serverNow: number;
  busy: boolean;
  onSession: (sessionId: string) => void;
  /** The full-text search the rows answer: rows then show where it matched, and open there. */
  q?: string;
  sort?: SortField;
  order?: SortOrder;
  /** Sorts by a column: a new column starts descending, the current one flips. */
  onSort?: (sort: SortField, order: SortOrder) => void;
}) {
  const router = useRouter();
  const [opening, startOpening] = useTransition();
  const [openingId, setOpeningId] = useState<string | null>(null);

  const hrefOf = (t: TraceListItem) => (q ? traceMatchHref(t.id, q, t.matches) : traceHref(t.id));
  const openRow = (e: MouseEvent<HTMLTableRowElement>, t: TraceListItem) => {
    const id = t.id;
    // Links and buttons inside the row do their own thing; selecting text is not a click.
    if ((e.target as HTMLElement).closest('a, button, input, select')) return;
    if (window.getSelection()?.toString()) return;
    if (e.metaKey || e.ctrlKey) {
      window.open(hrefOf(t), '_blank', 'noopener');
      return;
    }
    setOpeningId(id);
    startOpening(() => router.push(hrefOf(t)));
  };

  // Up/Down move between the rows' name links: the list reads like a menu.
  const moveFocus = (e: KeyboardEvent<HTMLTableSectionElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const target = e.target as HTMLElement;
    if (!target.matches('a[data-row-link]')) return;
    const links = Array.from(e.currentTarget.querySelectorAll<HTMLAnchorElement>('a[data-row-link]'));
    const index = links.indexOf(target as HTMLAnchorElement);
    const next = links[index + (e.key === 'ArrowDown' ? 1 : -1)];
    if (next) {
      e.preventDefault();
      next.focus();
    }
  };

  return (
    <div className="overflow-hidden rounded-lg border border-border">
      <table className="w-full table-fixed border-collapse text-sm" aria-busy={busy}>
        <caption className="sr-only">Traces. Use the arrow keys to move between traces.</caption>
        <colgroup>
          {COLUMNS.map((c) => (
            <col key={c.key} className={c.width || undefined} />
          ))}
        </colgroup>
        <thead className="bg-surface text-xs text-muted">
          <tr>
            {COLUMNS.map((c) => (
              <th
                key={c.key}
                scope="col"
                title={'title' in c ? c.title : undefined}
                aria-sort={'sort' in c && c.sort === sort ? (order === 'asc' ? 'ascending' : 'descending') : undefined}
                className={`h-9 px-2 font-medium first:pl-4 ${'numeric' in c ? 'text-right' : 'text-left'}`}
              >
                {'sort' in c && onSort ? (
                  <button
                    type="button"
                    onClick={() => onSort(c.sort, c.sort === sort && order === 'desc' ? 'asc' : 'desc')}
                    className={`inline-flex items-center gap-0.5 hover:text-fg ${c.sort === sort ? 'text-fg' : ''}`}
                    aria-label={`Sort by ${c.label.toLowerCase()}${c.sort === sort ? (order === 'desc' ? ', now highest first' : ', now lowest first') : ''}`}
                  >
                    {c.label}
                    <span aria-hidden="true" className={c.sort === sort ? '' : 'invisible'}>
                      {order === 'asc' ? '▲' : '▼'}
                    </span>
                  </button>
                ) : (
                  c.label
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody onKeyDown={moveFocus} className={`whitespace-nowrap ${busy ? 'opacity-60' : ''} transition-opacity`}>
          {traces.map((t) => (
            <tr
              key={t.id}
              onClick={(e) => openRow(e, t)}
              className={`${q && t.matches?.length ? 'h-14' : 'h-10'} cursor-pointer border-t border-border hover:bg-surface ${
                t.status === 'ERROR' ? 'shadow-[inset_3px_0_0_0] shadow-red-600 dark:shadow-red-400' : ''
              }`}
            >
              <td className="truncate py-1 pr-2 pl-4">
                <span className="flex min-w-0 items-center">
                  <Link
                    href={hrefOf(t)}
                    prefetch={false}
                    data-row-link=""
                    className="flex min-w-0 items-center font-medium text-fg hover:text-accent hover:underline"
                    title={`${t.name} (${t.id})`}
                  >
                    <span className="truncate">{t.name}</span>
                    <LinkPending />
                  </Link>
                  {opening && openingId === t.id && <Spinner className="ml-1.5 shrink-0 text-muted" label="Opening trace" />}
                </span>
                {q && t.matches && <MatchLine matches={t.matches} q={q} />}
              </td>
              <td className="px-2">
                <StatusBadge status={t.status} />
              </td>
              <td className="truncate px-2">
                {t.sessionId ? (
                  <a
                    href={sessionHref(t.sessionId)}
                    title={`Show the traces of session ${t.sessionId}`}
                    onClick={(e) => {
                      if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
                      e.preventDefault();
                      onSession(t.sessionId!);
                    }}
                    className="font-mono text-xs text-accent hover:underline"
                  >
                    {t.sessionId}
                  </a>
                ) : (
                  <span className="text-muted">—</span>
                )}
              </td>
              <td className="px-2">
                <Tags tags={t.tags} />
              </td>
              <td className="truncate px-2 text-muted">
                <RelativeTime iso={t.startedAt} serverNow={serverNow} />
              </td>
              <td className="px-2 text-right tabular">
                <Duration trace={t} serverNow={serverNow} />
              </td>
              <td className="px-2 text-right tabular">
                {t.totalCost === null ? <span className="text-muted">—</span> : formatCost(t.totalCost)}
              </td>
              <td className="px-2 text-right tabular">
                {t.totalTokens === null ? <span className="text-muted">—</span> : formatTokens(t.totalTokens)}
              </td>
              <td className="px-2 text-right tabular">
                <Count n={t._count.decisionPoints} />
              </td>
              <td className="px-2 text-right tabular">
                <Count n={t._count.spans} />
              </td>
              <td className="px-2 pr-3 text-right tabular">
                <Count n={t._count.events} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
