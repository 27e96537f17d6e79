'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { TIME_RANGE_LABELS } from '@/lib/client/list-filters';
import { sessionListHref, type SessionListParams } from '@/lib/features/sessions/shared';
import { RUN_STATUSES, TIME_RANGE_KEYS, type RunStatus, type TimeRange } from '@/lib/features/traces/shared';
import { statusLabel } from '@/components/ui/badges';
import { SuggestionList } from '@/components/ui/Suggestions';

const field = 'h-8 w-full min-w-0 rounded-md border border-border-strong bg-bg px-2 text-sm text-fg placeholder:text-muted';

/**
 * The sessions list's filters: a search of session ids, the user (suggested from the
 * stored users), the session's status and a time range of latest activity. Written to the
 * URL (the page reads it), the selects at once, the text fields on Enter or Apply.
 */
export function SessionFilters({ params }: { params: SessionListParams }) {
  const router = useRouter();
  const [search, setSearch] = useState(params.search ?? '');
  const [userId, setUserId] = useState(params.userId ?? '');
  const [userFocused, setUserFocused] = useState(false);
  // A custom from/to (a link) shows as such until a preset replaces it.
  const custom = !params.range && (params.from || params.to);

  const go = (change: Partial<SessionListParams>) => {
    const next: SessionListParams = { page: 1, limit: params.limit, search: search.trim() || undefined, userId: userId.trim() || undefined, status: params.status, range: params.range, from: params.from, to: params.to, ...change };
    router.push(sessionListHref(next));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    go({});
  };

  return (
    <form role="search" aria-label="Filter sessions" onSubmit={submit} className="flex flex-wrap items-end gap-3">
      <div className="flex w-64 max-w-full flex-col gap-1">
        <label htmlFor="sessions-search" className="text-xs font-medium text-muted">
          Search session IDs
        </label>
        <input id="sessions-search" type="search" className={field} value={search} placeholder="Part of a session ID" autoComplete="off" spellCheck={false} onChange={(e) => setSearch(e.target.value)} />
      </div>
      <div className="flex w-48 max-w-full flex-col gap-1">
        <label htmlFor="sessions-user" className="text-xs font-medium text-muted">
          User ID
        </label>
        <input
          id="sessions-user"
          className={field}
          value={userId}
          placeholder="Exact user ID"
          autoComplete="off"
          spellCheck={false}
          list="sessions-user-suggestions"
          onFocus={() => setUserFocused(true)}
          onChange={(e) => setUserId(e.target.value)}
        />
        <SuggestionList id="sessions-user-suggestions" field="userId" text={userId.trim()} active={userFocused} />
      </div>
      <div className="flex w-40 max-w-full flex-col gap-1">
        <label htmlFor="sessions-status" className="text-xs font-medium text-muted">
          Status
        </label>
        <select id="sessions-status" className={field} value={params.status ?? ''} onChange={(e) => go({ status: (e.target.value || undefined) as RunStatus | undefined })}>
          <option value="">Any</option>
          {RUN_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s === 'ERROR' ? 'Has an error' : statusLabel(s)}
            </option>
          ))}
        </select>
      </div>
      <div className="flex w-44 max-w-full flex-col gap-1">
        <label htmlFor="sessions-range" className="text-xs font-medium text-muted">
          Latest activity
        </label>
        <select
          id="sessions-range"
          className={field}
          value={params.range ?? (custom ? 'custom' : '')}
          onChange={(e) => go({ range: (e.target.value || undefined) as TimeRange | undefined, from: undefined, to: undefined })}
        >
          <option value="">Any time</option>
          {TIME_RANGE_KEYS.map((key) => (
            <option key={key} value={key}>
              {TIME_RANGE_LABELS[key]}
            </option>
          ))}
          {custom && (
            <option value="custom" disabled>
              From and to of the link
            </option>
          )}
        </select>
      </div>
      <button type="submit" className="h-8 rounded-md bg-accent px-3 text-sm font-medium text-bg hover:opacity-90">
        Apply
      </button>
    </form>
  );
}
