'use client';

import { useMemo, useState } from 'react';
import { EVENT_TYPES, type EventType } from '@/lib/features/traces/shared';
import { formatOffset, plural, toMillis } from '@/lib/core/format';
import { EVENT_META, EventTypeBadge } from '@/components/ui/badges';
import type { Selection, TraceModel } from './model';

const PAGE = 200;

export function EventList({
  model,
  selection,
  onSelect,
  onReveal,
}: {
  model: TraceModel;
  selection: Selection | null;
  onSelect: (s: Selection) => void;
  onReveal: (s: Selection) => void;
}) {
  const [type, setType] = useState<EventType | ''>('');
  const [shown, setShown] = useState(PAGE);
  const events = model.trace.events;
  const counts = useMemo(() => {
    const m = new Map<EventType, number>();
    for (const e of events) m.set(e.type, (m.get(e.type) ?? 0) + 1);
    return m;
  }, [events]);
  const filtered = useMemo(() => (type ? events.filter((e) => e.type === type) : events), [events, type]);

  if (events.length === 0) {
    return <p className="rounded-lg border border-dashed border-border-strong p-6 text-muted">This trace recorded no events.</p>;
  }

  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="flex items-end gap-3 pb-3">
        <div className="flex flex-col gap-1">
          <label htmlFor="event-type" className="text-xs font-medium text-muted">
            Event type
          </label>
          <select
            id="event-type"
            value={type}
            onChange={(e) => {
              setType(e.target.value as EventType | '');
              setShown(PAGE);
            }}
            className="h-8 rounded-md border border-border-strong bg-bg px-2 text-sm"
          >
            <option value="">All types ({events.length})</option>
            {EVENT_TYPES.filter((t) => counts.has(t)).map((t) => (
              <option key={t} value={t}>
                {EVENT_META[t].label} ({counts.get(t)})
              </option>
            ))}
          </select>
        </div>
        <p className="pb-1.5 text-sm text-muted" aria-live="polite">
          {filtered.length === events.length ? plural(events.length, 'event') : `${filtered.length} of ${plural(events.length, 'event')}`}
        </p>
      </div>
      <div className="min-h-0 flex-1 overflow-auto rounded-md border border-border">
        <table className="w-full table-fixed text-sm" data-testid="event-list">
          <caption className="sr-only">Events of the trace, in time order</caption>
          <colgroup>
            <col style={{ width: 90 }} />
            <col style={{ width: 150 }} />
            <col />
            <col style={{ width: '32%' }} />
          </colgroup>
          <thead className="sticky top-0 bg-surface text-xs text-muted">
            <tr>
              <th scope="col" className="h-8 px-3 text-right font-medium">
                Time
              </th>
              <th scope="col" className="px-2 text-left font-medium">
                Type
              </th>
              <th scope="col" className="px-2 text-left font-medium">
                Name
              </th>
              <th scope="col" className="px-2 text-left font-medium">
                Span
              </th>
            </tr>
          </thead>
          <tbody>
            {filtered.slice(0, shown).map((e) => {
              const t = toMillis(e.timestamp);
              const span = e.spanId ? model.tree.spanById.get(e.spanId) : undefined;
              const selected = selection?.kind === 'event' && selection.id === e.id;
              return (
                <tr
                  key={e.id}
                  onClick={(ev) => {
                    if ((ev.target as HTMLElement).closest('button')) return;
                    onSelect({ kind: 'event', id: e.id });
                  }}
                  className={`h-9 cursor-pointer border-t border-border ${selected ? 'bg-selected' : e.type === 'ERROR' ? 'bg-red-50 hover:bg-red-100 dark:bg-red-950/40 dark:hover:bg-red-950/70' : 'hover:bg-surface'}`}
                >
                  <td className="px-3 text-right text-muted tabular">{t !== null ? formatOffset(t - model.window.start) : '—'}</td>
                  <td className="px-2">
                    <EventTypeBadge type={e.type} />
                  </td>
                  <td className="truncate px-2">
                    <button
                      type="button"
                      onClick={() => onSelect({ kind: 'event', id: e.id })}
                      className="max-w-full truncate text-left font-medium hover:text-accent hover:underline"
                    >
                      {e.name}
                    </button>
                  </td>
                  <td className="truncate px-2 text-muted">
                    {e.spanId ? (
                      span ? (
                        <button
                          type="button"
                          onClick={() => onReveal({ kind: 'span', id: span.span.id })}
                          className="max-w-full truncate text-left text-accent hover:underline"
                        >
                          {span.span.name}
                        </button>
                      ) : (
                        <span title="This span is not in the trace">{e.spanId} (missing)</span>
                      )
                    ) : (
                      'the trace'
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {filtered.length > shown && (
          <button
            type="button"
            onClick={() => setShown((n) => n + PAGE)}
            className="w-full border-t border-border py-2 text-sm hover:bg-surface-2"
          >
            Show {Math.min(PAGE, filtered.length - shown)} more
          </button>
        )}
      </div>
    </div>
  );
}
