import Link from 'next/link';
import { formatCost, formatTokens, plural } from '@/lib/core/format';
import { sessionListHref, sessionPageHref } from '@/lib/features/sessions/shared';
import type { SessionList, SessionListParams } from '@/lib/features/sessions/shared';
import { RelativeTime } from '@/components/ui/time';
import { MiddleEllipsis } from '@/components/ui/MiddleEllipsis';

const COLUMNS = [
  { label: 'Session', numeric: false },
  { label: 'User', numeric: false },
  { label: 'First input', numeric: false },
  { label: 'Traces', numeric: true },
  { label: 'Errors', numeric: true },
  { label: 'First activity', numeric: false },
  { label: 'Last activity', numeric: false },
  { label: 'Cost', numeric: true },
  { label: 'Tokens', numeric: true },
] as const;

/** The sessions of one page, latest activity first, with links to the pages around it. */
export function SessionTable({ list, params, serverNow }: { list: SessionList; params: SessionListParams; serverNow: number }) {
  const first = list.total === 0 ? 0 : Math.min(list.total, (list.page - 1) * list.limit + 1);
  const last = Math.min(list.total, list.page * list.limit);
  const th = 'px-3 py-2 text-xs font-semibold text-muted';
  const num = 'px-3 py-2 text-right tabular';
  return (
    <div>
      {/* Positioned: the times' screen-reader text (absolutely placed) stays inside the scrolling box instead of widening the page. */}
      <div className="relative overflow-x-auto rounded-md border border-border">
        <table className="w-full text-sm" data-testid="sessions-table">
          <thead className="border-b border-border bg-surface">
            <tr>
              {COLUMNS.map((c) => (
                <th key={c.label} scope="col" className={`${th} ${c.numeric ? 'text-right' : 'text-left'}`}>
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {list.sessions.map((s) => (
              <tr key={s.id} className="border-b border-border last:border-0 hover:bg-surface">
                <td className="max-w-[16rem] px-3 py-2">
                  <Link href={sessionPageHref(s.id)} aria-label={s.id} className="block min-w-0 font-mono text-xs text-accent hover:underline">
                    <MiddleEllipsis text={s.id} />
                  </Link>
                </td>
                <td className="max-w-[10rem] px-3 py-2">
                  {s.userId ? (
                    <Link href={sessionListHref({ ...params, page: 1, userId: s.userId })} aria-label={s.userId} className="block min-w-0 text-accent hover:underline">
                      <MiddleEllipsis text={s.userId} title={`Only the sessions of ${s.userId}`} />
                    </Link>
                  ) : (
                    <span className="text-muted">—</span>
                  )}
                </td>
                <td className="max-w-[20rem] min-w-[12rem] px-3 py-2">
                  {s.firstInput ? (
                    <span className="block truncate text-muted" title={s.firstInput}>
                      {s.firstInput}
                    </span>
                  ) : (
                    <span className="text-muted italic">No input recorded</span>
                  )}
                </td>
                <td className={num}>{s.traces}</td>
                <td className={num}>
                  {s.errorTraces > 0 ? (
                    <span className="font-medium text-red-800 dark:text-red-200">{s.errorTraces}</span>
                  ) : (
                    <span className="text-muted">0</span>
                  )}
                </td>
                <td className="px-3 py-2 whitespace-nowrap">
                  <RelativeTime iso={s.firstStartedAt} serverNow={serverNow} />
                </td>
                <td className="px-3 py-2 whitespace-nowrap">
                  <RelativeTime iso={s.lastStartedAt} serverNow={serverNow} />
                </td>
                <td className={num}>{formatCost(s.totalCost)}</td>
                <td className={num}>{formatTokens(s.totalTokens)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav aria-label="Pages" className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
        <p className="text-muted tabular">
          {list.total === 0 ? 'No sessions on this page' : `${first}–${last} of ${plural(list.total, 'session')}`}
          {list.totalPages > 1 && ` · page ${list.page} of ${list.totalPages}`}
        </p>
        <div className="flex gap-2">
          {list.page > 1 && (
            <Link href={sessionListHref({ ...params, page: list.page - 1 })} className="rounded-md border border-border px-2 py-1 hover:bg-surface-2">
              ← Newer
            </Link>
          )}
          {list.page < list.totalPages && (
            <Link href={sessionListHref({ ...params, page: list.page + 1 })} className="rounded-md border border-border px-2 py-1 hover:bg-surface-2">
              Older →
            </Link>
          )}
        </div>
      </nav>
    </div>
  );
}
