'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { readReviewFilters, reviewQueries, type ReviewKey, type ReviewNext, type ReviewUrlFilters } from '@/lib/client/review';
import { traceQueries } from '@/lib/client/traces';
import { scoreRequests } from '@/lib/client/scores';
import { DECISION_BETTER_OPTION, DECISION_CORRECT } from '@/lib/features/scores/shared';
import { notChosenOptions } from '@/lib/features/traces/shared';
import { conversationSource, type ConversationSource } from '@/lib/features/reviews/shared';
import { DECISION_TYPES, RUN_STATUSES, type DecisionPointRecord } from '@/lib/features/traces/shared';
import { summarizeJson } from '@/components/json/json';
import { ChosenVsAlternatives, DecisionOutcome } from '@/components/traces/detail/DecisionCard';
import { ChatPayload } from '@/components/traces/detail/chat/ChatPayload';
import { buildModel, type Selection, type TraceModel } from '@/components/traces/detail/model';
import { DECISION_LABEL, DecisionTypeBadge, StatusBadge, statusLabel } from '@/components/ui/badges';
import { LongText } from '@/components/ui/LongText';
import { ErrorState, Spinner } from '@/components/ui/states';
import { useHydrationMarker } from '@/components/ui/time';

const field = 'h-8 w-full rounded-md border border-border-strong bg-bg px-2 text-sm text-fg placeholder:text-muted';
const keyButton =
  'inline-flex h-9 items-center gap-2 rounded-md border px-3 text-sm font-medium disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent';

/** A keyboard key as shown on a button. */
function Kbd({ children }: { children: string }) {
  return <kbd className="rounded border border-current/40 px-1 font-mono text-[11px] leading-4 opacity-80">{children}</kbd>;
}

/** Dates in the URL are what the API takes (ISO 8601); the date inputs show their day. */
const dayOf = (iso: string | undefined) => (iso ? iso.slice(0, 10) : '');
const isoOf = (day: string, end: boolean) => (day ? new Date(`${day}T00:00:00.000Z`).getTime() + (end ? 86_400_000 : 0) : null);

function Filters({ filters, onChange }: { filters: ReviewUrlFilters; onChange: (next: ReviewUrlFilters) => void }) {
  const [option, setOption] = useState(filters.option ?? '');
  const [name, setName] = useState(filters.name ?? '');
  const set = (key: keyof ReviewUrlFilters, value: string | null) => onChange({ ...filters, [key]: value || undefined });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onChange({ ...filters, option: option.trim() || undefined, name: name.trim() || undefined });
  };
  return (
    <form onSubmit={submit} aria-label="Filter the queue" className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-[repeat(6,minmax(0,1fr))_auto]">
      <label className="block min-w-0">
        <span className="text-xs text-muted">Decision type</span>
        <select className={field} value={filters.type ?? ''} onChange={(e) => set('type', e.target.value)}>
          <option value="">Any</option>
          {DECISION_TYPES.map((t) => (
            <option key={t} value={t}>
              {DECISION_LABEL[t]}
            </option>
          ))}
        </select>
      </label>
      <label className="block min-w-0">
        <span className="text-xs text-muted">Chosen option</span>
        <input className={field} value={option} onChange={(e) => setOption(e.target.value)} placeholder="exact label" />
      </label>
      <label className="block min-w-0">
        <span className="text-xs text-muted">Trace name</span>
        <input className={field} value={name} onChange={(e) => setName(e.target.value)} placeholder="exact name" />
      </label>
      <label className="block min-w-0">
        <span className="text-xs text-muted">Trace status</span>
        <select className={field} value={filters.status ?? ''} onChange={(e) => set('status', e.target.value)}>
          <option value="">Any</option>
          {RUN_STATUSES.map((s) => (
            <option key={s} value={s}>
              {statusLabel(s)}
            </option>
          ))}
        </select>
      </label>
      <label className="block min-w-0">
        <span className="text-xs text-muted">From (UTC day)</span>
        <input
          className={field}
          type="date"
          value={dayOf(filters.from)}
          onChange={(e) => {
            const t = isoOf(e.target.value, false);
            set('from', t === null ? null : new Date(t).toISOString());
          }}
        />
      </label>
      <label className="block min-w-0">
        <span className="text-xs text-muted">To (UTC day, inclusive)</span>
        <input
          className={field}
          type="date"
          value={filters.to ? new Date(new Date(filters.to).getTime() - 86_400_000).toISOString().slice(0, 10) : ''}
          onChange={(e) => {
            const t = isoOf(e.target.value, true);
            set('to', t === null ? null : new Date(t).toISOString());
          }}
        />
      </label>
      <div className="col-span-2 flex items-end gap-2 sm:col-span-3 lg:col-span-1">
        <button type="submit" className="h-8 rounded-md border border-border-strong bg-bg px-3 text-sm font-medium hover:bg-surface-2">
          Apply
        </button>
      </div>
    </form>
  );
}

function Progress({ data }: { data: ReviewNext }) {
  const { reviewed, total } = data.progress;
  const share = total === 0 ? 0 : Math.round((reviewed / total) * 100);
  return (
    <div className="flex min-w-0 items-center gap-3">
      <p data-testid="review-progress" aria-live="polite" className="text-sm font-medium tabular">
        {reviewed.toLocaleString('en-US')} of {total.toLocaleString('en-US')} reviewed
      </p>
      <div aria-hidden="true" className="h-1.5 w-32 overflow-hidden rounded-full bg-surface-2">
        <div className="h-full bg-accent" style={{ width: `${share}%` }} />
      </div>
    </div>
  );
}

/**
 * The conversation so far, loaded with its span's payloads: the last model call's input and
 * output, or, when no model call precedes the decision, the run's input (its root span's).
 */
function Conversation({ traceId, source }: { traceId: string; source: ConversationSource }) {
  const { span, kind } = source;
  const payloads = useQuery(traceQueries.span(traceId, span.id, span.status === 'RUNNING'));
  const empty = kind === 'run-input' && payloads.data && (payloads.data.input === null || payloads.data.input === undefined);
  return (
    <>
      <p className="text-xs text-muted" data-testid="conversation-source" data-kind={kind}>
        {kind === 'model-call' ? 'From the model call ' : 'No model call before this decision: the run’s input, from its span '}
        <span className="font-medium text-fg">{span.name}</span>
      </p>
      {payloads.data ? (
        empty ? (
          <p className="text-sm text-muted">The run has no input.</p>
        ) : (
          <>
            <ChatPayload label="Input" value={payloads.data.input} side="input" />
            {kind === 'model-call' && <ChatPayload label="Output" value={payloads.data.output} side="output" />}
          </>
        )
      ) : payloads.isError ? (
        <p role="alert" className="text-sm text-red-800 dark:text-red-200">
          Could not load the conversation: {payloads.error.message}
        </p>
      ) : (
        <Spinner label="Loading the conversation" className="text-muted" />
      )}
    </>
  );
}

type Verdict = { correct: boolean; better?: string | null; comment: string };

function ReviewItem({
  model,
  decision,
  onVerdict,
  onSkip,
  saving,
}: {
  model: TraceModel;
  decision: DecisionPointRecord;
  onVerdict: (v: Verdict) => void;
  onSkip: () => void;
  saving: boolean;
}) {
  const router = useRouter();
  const [wrong, setWrong] = useState(false);
  const [other, setOther] = useState('');
  const [comment, setComment] = useState('');
  const options = useMemo(() => notChosenOptions(decision), [decision]);
  const conversation = useMemo(() => conversationSource(decision, model.trace.spans), [decision, model]);
  const wrongPanel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (wrong) wrongPanel.current?.querySelector<HTMLElement>('button, input')?.focus();
  }, [wrong]);

  // R, W, S (and 1-9 for a better option once W is pressed), unless typing in a field.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || saving) return;
      const t = e.target as HTMLElement;
      if (t.closest('input, textarea, select, [contenteditable="true"]')) return;
      const key = e.key.toLowerCase();
      if (key === 'escape' && wrong) {
        setWrong(false);
        return;
      }
      if (wrong && /^[1-9]$/.test(key)) {
        const picked = options[Number(key) - 1];
        if (picked) {
          e.preventDefault();
          onVerdict({ correct: false, better: picked.label, comment });
        }
        return;
      }
      if (key === 'r') {
        e.preventDefault();
        onVerdict({ correct: true, comment });
      } else if (key === 'w') {
        e.preventDefault();
        setWrong(true);
      } else if (key === 's') {
        e.preventDefault();
        onSkip();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [wrong, options, comment, saving, onVerdict, onSkip]);

  const open = (s: Selection) => router.push(`/traces/${encodeURIComponent(model.trace.id)}?${s.kind}=${encodeURIComponent(s.id)}`);
  const trace = model.trace;
  return (
    <article data-testid="review-item" aria-label={`Decision ${decision.id} of ${trace.name}`} className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <div className="min-w-0 space-y-4">
        <header className="space-y-1">
          <div className="flex flex-wrap items-center gap-2 text-xs text-muted">
            <DecisionTypeBadge type={decision.type} />
            <span>in</span>
            <Link
              href={`/traces/${encodeURIComponent(trace.id)}?tab=decisions&decision=${encodeURIComponent(decision.id)}`}
              className="min-w-0 truncate font-medium text-accent hover:underline"
              data-testid="review-trace"
            >
              {trace.name}
            </Link>
          </div>
          <h2 className="text-lg font-semibold break-words" data-testid="review-chosen">
            Chose {summarizeJson(decision.chosen, 120)}
          </h2>
        </header>
        <section aria-labelledby="review-reasoning" className="space-y-1">
          <h3 id="review-reasoning" className="text-xs font-semibold tracking-wide text-muted uppercase">
            Reasoning
          </h3>
          {decision.reasoning ? (
            <LongText text={decision.reasoning} limit={800} className="border-l-2 border-fuchsia-400 pl-3 dark:border-fuchsia-500" />
          ) : (
            <p className="text-muted italic">No reasoning recorded.</p>
          )}
        </section>
        <ChosenVsAlternatives decision={decision} />
        <section aria-labelledby="review-next" className="space-y-1.5">
          <h3 id="review-next" className="text-xs font-semibold tracking-wide text-muted uppercase">
            What happened next
          </h3>
          <DecisionOutcome decision={decision} model={model} onOpen={open} />
          <p className="flex flex-wrap items-center gap-2 text-xs" data-testid="review-trace-outcome">
            <span className="text-muted">The trace ended</span>
            <StatusBadge status={trace.status} />
          </p>
        </section>

        <div className="space-y-3 rounded-lg border border-border bg-surface p-3">
          <label className="block">
            <span className="text-xs font-medium text-muted">Comment (optional, saved with the verdict)</span>
            <textarea className={`${field} h-14 py-1`} value={comment} onChange={(e) => setComment(e.target.value)} maxLength={10_000} />
          </label>
          <div className="flex flex-wrap gap-2" role="group" aria-label="Verdict">
            <button
              type="button"
              aria-keyshortcuts="R"
              disabled={saving}
              onClick={() => onVerdict({ correct: true, comment })}
              className={`${keyButton} border-emerald-600 bg-emerald-50 text-emerald-900 hover:bg-emerald-100 dark:border-emerald-500 dark:bg-emerald-950 dark:text-emerald-100 dark:hover:bg-emerald-900`}
            >
              Right <Kbd>R</Kbd>
            </button>
            <button
              type="button"
              aria-keyshortcuts="W"
              aria-expanded={wrong}
              disabled={saving}
              onClick={() => setWrong(true)}
              className={`${keyButton} border-red-600 bg-red-50 text-red-900 hover:bg-red-100 dark:border-red-500 dark:bg-red-950 dark:text-red-100 dark:hover:bg-red-900`}
            >
              Wrong <Kbd>W</Kbd>
            </button>
            <button type="button" aria-keyshortcuts="S" disabled={saving} onClick={onSkip} className={`${keyButton} border-border-strong bg-bg text-fg hover:bg-surface-2`}>
              Skip <Kbd>S</Kbd>
            </button>
            {saving && <Spinner label="Saving" className="text-muted" />}
          </div>
          {wrong && (
            <div ref={wrongPanel} data-testid="better-option" role="group" aria-labelledby="better-title" className="space-y-2 border-t border-border pt-3">
              <p id="better-title" className="text-sm font-medium">
                What should it have chosen?
              </p>
              {options.length > 0 && (
                <ul className="flex flex-wrap gap-2">
                  {options.slice(0, 9).map((o, i) => (
                    <li key={o.label} className="min-w-0">
                      <button
                        type="button"
                        aria-keyshortcuts={String(i + 1)}
                        disabled={saving}
                        onClick={() => onVerdict({ correct: false, better: o.label, comment })}
                        className={`${keyButton} h-8 max-w-full border-border-strong bg-bg text-fg hover:bg-surface-2`}
                      >
                        <Kbd>{String(i + 1)}</Kbd>
                        <span className="truncate">{o.label}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              )}
              <form
                className="flex flex-wrap gap-2"
                onSubmit={(e) => {
                  e.preventDefault();
                  if (other.trim()) onVerdict({ correct: false, better: other.trim(), comment });
                }}
              >
                <label className="min-w-0 flex-1">
                  <span className="sr-only">Another option</span>
                  <input className={field} value={other} onChange={(e) => setOther(e.target.value)} placeholder="Another option (Enter saves)" maxLength={500} />
                </label>
                <button type="submit" disabled={saving || !other.trim()} className={`${keyButton} h-8 border-border-strong bg-bg text-fg hover:bg-surface-2`}>
                  Save
                </button>
              </form>
              <div className="flex flex-wrap gap-2">
                <button type="button" disabled={saving} onClick={() => onVerdict({ correct: false, better: null, comment })} className={`${keyButton} h-8 border-border-strong bg-bg text-fg hover:bg-surface-2`}>
                  Wrong, no better option
                </button>
                <button type="button" onClick={() => setWrong(false)} className={`${keyButton} h-8 border-border bg-bg text-muted hover:text-fg`}>
                  Cancel <Kbd>Esc</Kbd>
                </button>
              </div>
            </div>
          )}
        </div>
      </div>
      <section aria-labelledby="review-conversation" className="min-w-0 space-y-2">
        <h3 id="review-conversation" className="text-xs font-semibold tracking-wide text-muted uppercase">
          The conversation so far
        </h3>
        {conversation ? (
          <Conversation traceId={model.trace.id} source={conversation} />
        ) : (
          <p className="text-sm text-muted">No model call before this decision, and the run has no spans.</p>
        )}
      </section>
    </article>
  );
}

/** /review: unreviewed decision points one at a time; R right, W wrong (then the better option), S skip. */
export function ReviewView() {
  useHydrationMarker('review');
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const queryClient = useQueryClient();
  const filters = useMemo(() => readReviewFilters(searchParams), [searchParams]);
  const filterKey = JSON.stringify(filters);
  const [skipped, setSkipped] = useState<{ key: string; items: ReviewKey[] }>({ key: filterKey, items: [] });
  // Skips belong to one set of filters: new filters start the sitting over.
  const skips = skipped.key === filterKey ? skipped.items : [];
  const next = useQuery(reviewQueries.next(filters, skips));
  const [last, setLast] = useState<string | null>(null);

  const item = next.data?.item ?? null;
  // The item names its decision; the trace around it (spans, outcome, conversation) is read whole.
  const detail = useQuery({ ...traceQueries.detail(item?.traceId ?? ''), enabled: item !== null });
  const trace = item && detail.data?.id === item.traceId ? detail.data : null;
  const model = useMemo(() => (trace ? buildModel(trace) : null), [trace]);
  const decision = item && trace ? (trace.decisionPoints.find((d) => d.id === item.decisionPointId) ?? null) : null;

  const save = useMutation({
    mutationFn: async (v: Verdict) => {
      if (!item) return;
      const target = { traceId: item.traceId, decisionPointId: item.decisionPointId };
      const comment = v.comment.trim() === '' ? null : v.comment.trim();
      await scoreRequests.saveMany([
        { ...target, name: DECISION_CORRECT, value: v.correct, comment },
        ...(v.better ? [{ ...target, name: DECISION_BETTER_OPTION, value: v.better }] : []),
      ]);
    },
    onSuccess: async (_r, v) => {
      setLast(v.correct ? 'Saved: right.' : v.better ? `Saved: wrong, better ${v.better}.` : 'Saved: wrong.');
      await queryClient.invalidateQueries({ queryKey: reviewQueries.all() });
    },
  });

  const skip = () => {
    if (!item) return;
    setLast('Skipped.');
    setSkipped({ key: filterKey, items: [...skips, { traceId: item.traceId, decisionPointId: item.decisionPointId }] });
  };

  const setFilters = (f: ReviewUrlFilters) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(f)) if (v) q.set(k, v);
    const qs = q.toString();
    router.replace(`${pathname}${qs ? `?${qs}` : ''}`);
  };

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-xl font-semibold tracking-tight">Review decisions</h1>
          <p className="mt-1 text-sm text-muted">
            Was the agent’s choice right? Press <Kbd>R</Kbd> right, <Kbd>W</Kbd> wrong (then the better option), <Kbd>S</Kbd> skip.
            Each decision is held for you for 5 minutes.
          </p>
        </div>
        {next.data && <Progress data={next.data} />}
      </div>
      <Filters key={filterKey} filters={filters} onChange={setFilters} />
      <p role="status" className="min-h-5 text-sm text-muted" data-testid="review-status">
        {save.isError ? '' : last}
      </p>
      {save.isError && (
        <p role="alert" className="text-sm text-red-800 dark:text-red-200">
          Could not save the review: {save.error.message}
        </p>
      )}
      {next.isError && !next.data ? (
        <ErrorState title="Could not load the next decision" message={next.error.message} onRetry={() => void next.refetch()} retrying={next.isFetching} />
      ) : !next.data ? (
        <Spinner label="Loading the next decision" className="text-muted" />
      ) : item && detail.isError ? (
        <ErrorState title="Could not load this decision’s trace" message={detail.error.message} onRetry={() => void detail.refetch()} retrying={detail.isFetching} />
      ) : item && !(model && decision) ? (
        <Spinner label="Loading the decision" className="text-muted" />
      ) : item && model && decision ? (
        <ReviewItem
          key={`${item.traceId}\u0000${item.decisionPointId}`}
          model={model}
          decision={decision}
          onVerdict={(v) => save.mutate(v)}
          onSkip={skip}
          saving={save.isPending || next.isFetching}
        />
      ) : (
        <div data-testid="review-empty" className="rounded-lg border border-dashed border-border-strong bg-surface p-8 text-center">
          <p className="font-medium">Nothing left to review{Object.keys(filters).length > 0 ? ' with these filters' : ''}.</p>
          <p className="mt-1 text-sm text-muted">
            {skips.length > 0
              ? `You skipped ${skips.length}; they come back when you reload. `
              : ''}
            Decisions other reviewers hold now come back when they are done or after 5 minutes.
          </p>
        </div>
      )}
    </div>
  );
}
