'use client';

import { useMutation } from '@tanstack/react-query';
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { formatScoreValue, scoreRequests, type ScoreRecord, type ScoreTargetRef } from '@/lib/client/scores';
import { ScoreForm, smallButton, useScoreInvalidation } from './ScoreForm';
import { ThumbIcon } from './ThumbIcon';

const SOURCE_LABEL: Record<ScoreRecord['source'], string> = {
  ANNOTATION: 'annotation',
  API: 'API',
  SDK: 'SDK',
  FEEDBACK: 'user feedback',
  EVAL: 'evaluator',
};

/** The scores of anything that has them (`{ scores?: [...] }` on a trace, span or decision), or none. */
export function scoresOf(item: object): ScoreRecord[] {
  return (item as { scores?: ScoreRecord[] }).scores ?? [];
}

function chipTone(score: ScoreRecord): string {
  if (score.dataType === 'BOOLEAN') {
    return score.value === true
      ? 'border-emerald-600 bg-emerald-50 text-emerald-900 dark:border-emerald-500 dark:bg-emerald-950 dark:text-emerald-100'
      : 'border-red-600 bg-red-50 text-red-900 dark:border-red-500 dark:bg-red-950 dark:text-red-100';
  }
  return 'border-border-strong bg-surface text-fg';
}

function describe(score: ScoreRecord): string {
  const by = `${SOURCE_LABEL[score.source]} by ${score.author.name}`;
  return score.comment ? `${by}: ${score.comment}` : by;
}

function ScoreDetails({ score, onEdit, onClose }: { score: ScoreRecord; onEdit: () => void; onClose: () => void }) {
  const invalidate = useScoreInvalidation();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => scoreRequests.remove(score.id),
    onSuccess: async () => {
      await invalidate();
      onClose();
    },
  });
  return (
    <div data-testid="score-details" className="mt-2 space-y-1.5 rounded-md border border-border bg-surface p-2.5 text-sm">
      <p>
        <span className="font-medium">{score.name}</span>: {formatScoreValue(score)}
      </p>
      <p className="text-xs text-muted">
        {SOURCE_LABEL[score.source]} by <span className="text-fg">{score.author.name}</span>,{' '}
        <time dateTime={score.updatedAt}>{score.updatedAt.slice(0, 16).replace('T', ' ')} UTC</time>
      </p>
      {score.comment && <p className="border-l-2 border-border-strong pl-2 break-words whitespace-pre-wrap" data-testid="score-comment">{score.comment}</p>}
      {remove.isError && (
        <p role="alert" className="text-xs text-red-800 dark:text-red-200">
          {remove.error.message}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <button type="button" className={smallButton} onClick={onEdit}>
          Edit
        </button>
        {confirming ? (
          <button type="button" className={`${smallButton} text-red-800 dark:text-red-200`} onClick={() => remove.mutate()} disabled={remove.isPending} autoFocus>
            {remove.isPending ? 'Deleting…' : `Delete ${score.name} for good`}
          </button>
        ) : (
          <button type="button" className={smallButton} onClick={() => setConfirming(true)}>
            Delete
          </button>
        )}
        <button type="button" className={smallButton} onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}

type Open = { id: string; mode: 'view' | 'edit' } | 'new' | null;

/** Keeps this far from the window's edges. */
const POPOVER_MARGIN_PX = 8;

/**
 * The form or a score's details, over what follows the bar (a header row keeps its
 * layout): below the bar, moved left as far as it must to stay on the screen.
 */
function ScorePopover({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [shift, setShift] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    // Where it lies unshifted.
    const rect = el.getBoundingClientRect();
    const left = rect.left + shift;
    const over = rect.right + shift - (document.documentElement.clientWidth - POPOVER_MARGIN_PX);
    const next = Math.round(Math.max(0, Math.min(over, left - POPOVER_MARGIN_PX)));
    if (next !== shift) setShift(next);
  }, [shift]);
  return (
    <div
      ref={ref}
      data-testid="score-popover"
      className="absolute top-full left-0 z-40 w-[min(22rem,calc(100vw-1rem))] rounded-md shadow-lg [&>*]:mt-1"
      style={shift ? { transform: `translateX(-${shift}px)` } : undefined}
    >
      {children}
    </div>
  );
}

/** A target's scores as chips (name: value; source, author and comment on hover and when opened), with add, edit and delete. */
export function ScoreBar({ target, scores, label }: { target: ScoreTargetRef; scores: ScoreRecord[]; label: string }) {
  const [open, setOpen] = useState<Open>(null);
  const current = open !== null && open !== 'new' ? scores.find((s) => s.id === open.id) : undefined;
  return (
    // Clicks inside stay here: a decision card selects itself on a click anywhere else.
    <div
      role="group"
      aria-label={`Scores of ${label}`}
      data-testid="score-bar"
      onClick={(e) => e.stopPropagation()}
      // Escape puts an open form or score away (from the chip or inside the popover).
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open !== null) {
          e.preventDefault();
          e.stopPropagation();
          setOpen(null);
        }
      }}
      className="relative min-w-0"
    >
      <ul className="flex flex-wrap items-center gap-1.5">
        {scores.map((s) => {
          const expanded = open !== null && open !== 'new' && open.id === s.id;
          return (
            <li key={s.id} className="min-w-0">
              <button
                type="button"
                data-testid="score-chip"
                aria-expanded={expanded}
                title={describe(s)}
                aria-label={`${s.name}: ${formatScoreValue(s)}, ${describe(s)}`}
                onClick={() => setOpen(expanded ? null : { id: s.id, mode: 'view' })}
                className={`inline-flex max-w-full items-center gap-1 rounded-full border px-2 py-px text-xs ${chipTone(s)}`}
              >
                <span className="truncate">{s.name}</span>
                <span aria-hidden="true">:</span>
                {s.dataType === 'BOOLEAN' && <ThumbIcon up={s.value === true} size={11} />}
                <span className="truncate font-medium tabular">{formatScoreValue(s)}</span>
                {s.comment && (
                  <span aria-hidden="true" className="text-muted" title="Has a comment">
                    …
                  </span>
                )}
              </button>
            </li>
          );
        })}
        <li>
          <button
            type="button"
            aria-expanded={open === 'new'}
            onClick={() => setOpen(open === 'new' ? null : 'new')}
            className="rounded-full border border-dashed border-border-strong px-2 py-px text-xs text-muted hover:text-fg"
          >
            + Score<span className="sr-only"> {label}</span>
          </button>
        </li>
      </ul>
      {(open === 'new' || current) && (
        <ScorePopover>
          {open === 'new' && <ScoreForm target={target} onDone={() => setOpen(null)} />}
          {current && open !== null && open !== 'new' && open.mode === 'view' && (
            <ScoreDetails score={current} onEdit={() => setOpen({ id: current.id, mode: 'edit' })} onClose={() => setOpen(null)} />
          )}
          {current && open !== null && open !== 'new' && open.mode === 'edit' && (
            <ScoreForm key={current.id} target={target} initial={current} onDone={() => setOpen(null)} />
          )}
        </ScorePopover>
      )}
    </div>
  );
}
