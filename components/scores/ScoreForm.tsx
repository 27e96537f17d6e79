'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { scoreQueries, scoreRequests, type ScoreConfigRecord, type ScoreRecord, type ScoreTargetRef } from '@/lib/client/scores';
import { traceQueries } from '@/lib/client/traces';
import { SCORE_DATA_TYPES, type ScoreDataType, type ScoreValue } from '@/lib/features/scores/shared';
import { ThumbIcon } from './ThumbIcon';

const field = 'h-8 w-full rounded-md border border-border-strong bg-bg px-2 text-sm text-fg placeholder:text-muted';
export const smallButton = 'inline-flex h-7 items-center gap-1 rounded-md border border-border-strong bg-bg px-2 text-xs font-medium text-fg hover:bg-surface-2 disabled:opacity-60';
export const primarySmallButton = 'inline-flex h-7 items-center gap-1 rounded-md bg-accent px-2.5 text-xs font-medium text-bg hover:opacity-90 disabled:opacity-70';

const TYPE_LABEL: Record<ScoreDataType, string> = { BOOLEAN: 'Thumbs', NUMERIC: 'Number', CATEGORICAL: 'Category' };

/** After a write: every trace detail and score list may show it. */
export function useScoreInvalidation() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: traceQueries.details() }),
      queryClient.invalidateQueries({ queryKey: scoreQueries.all() }),
    ]);
}

function boundsText(config: ScoreConfigRecord): string | null {
  if (config.min !== null && config.max !== null) return `from ${config.min} to ${config.max}`;
  if (config.min !== null) return `at least ${config.min}`;
  if (config.max !== null) return `at most ${config.max}`;
  return null;
}

/** Adds a score to a target or edits one: the controls follow the name's config (thumbs, categories, a number within bounds). */
export function ScoreForm({ target, initial, onDone }: { target: ScoreTargetRef; initial?: ScoreRecord; onDone: () => void }) {
  const id = useId();
  const configs = useQuery(scoreQueries.configs());
  const invalidate = useScoreInvalidation();
  const [name, setName] = useState(initial?.name ?? '');
  const config = configs.data?.find((c) => c.name === name.trim()) ?? null;
  const [freeType, setFreeType] = useState<ScoreDataType>(initial?.dataType ?? 'BOOLEAN');
  const dataType = config?.dataType ?? freeType;
  const [bool, setBool] = useState<boolean | null>(initial?.dataType === 'BOOLEAN' ? initial.value === true : null);
  const [text, setText] = useState(initial && initial.dataType !== 'BOOLEAN' ? String(initial.value) : '');
  const [comment, setComment] = useState(initial?.comment ?? '');
  const [problem, setProblem] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: (value: ScoreValue) =>
      scoreRequests.save(target, { id: initial?.id, name: name.trim(), value, dataType, comment: comment.trim() === '' ? null : comment }),
    onSuccess: async () => {
      await invalidate();
      onDone();
    },
    onError: (err) => setProblem(err.message),
  });

  const valueOf = (): { value: ScoreValue } | { problem: string } => {
    if (dataType === 'BOOLEAN') return bool === null ? { problem: 'Choose thumbs up or thumbs down' } : { value: bool };
    if (dataType === 'NUMERIC') {
      const n = Number(text.trim());
      if (text.trim() === '' || !Number.isFinite(n)) return { problem: 'Enter a number' };
      if (config?.min != null && n < config.min) return { problem: `The value must be at least ${config.min}` };
      if (config?.max != null && n > config.max) return { problem: `The value must be at most ${config.max}` };
      return { value: n };
    }
    return text.trim() === '' ? { problem: 'Choose or enter a category' } : { value: text.trim() };
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() === '') return setProblem('Give the score a name');
    const checked = valueOf();
    if ('problem' in checked) return setProblem(checked.problem);
    setProblem(null);
    save.mutate(checked.value);
  };

  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      onDone();
    }
  };

  const categories = config?.dataType === 'CATEGORICAL' ? config.categories : [];
  return (
    <form onSubmit={submit} onKeyDown={onKey} data-testid="score-form" aria-label={initial ? `Edit score ${initial.name}` : 'Add a score'} className="mt-2 space-y-2 rounded-md border border-border bg-surface p-2.5 text-sm">
      <div className="grid grid-cols-[minmax(0,1fr)_auto] items-end gap-2">
        <label className="block min-w-0">
          <span className="text-xs font-medium text-muted">Name</span>
          <input
            className={field}
            value={name}
            onChange={(e) => setName(e.target.value)}
            readOnly={initial !== undefined}
            list={`${id}-names`}
            placeholder="e.g. helpful"
            maxLength={200}
            autoFocus={initial === undefined}
            aria-describedby={config?.description ? `${id}-desc` : undefined}
          />
          <datalist id={`${id}-names`}>
            {configs.data?.map((c) => <option key={c.id} value={c.name} />)}
          </datalist>
        </label>
        {config ? (
          <span className="pb-1.5 text-xs text-muted" title="This name has a score config">
            {TYPE_LABEL[config.dataType]}
          </span>
        ) : (
          <label className="block">
            <span className="text-xs font-medium text-muted">Type</span>
            <select className={field} value={freeType} onChange={(e) => setFreeType(e.target.value as ScoreDataType)} disabled={initial !== undefined}>
              {SCORE_DATA_TYPES.map((t) => (
                <option key={t} value={t}>
                  {TYPE_LABEL[t]}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      {config?.description && (
        <p id={`${id}-desc`} className="text-xs text-muted">
          {config.description}
        </p>
      )}

      {dataType === 'BOOLEAN' && (
        <div role="group" aria-label="Value" className="flex gap-2">
          <button type="button" aria-pressed={bool === true} onClick={() => setBool(true)} className={`${smallButton} aria-pressed:border-emerald-600 aria-pressed:bg-emerald-50 aria-pressed:text-emerald-900 dark:aria-pressed:bg-emerald-950 dark:aria-pressed:text-emerald-100`}>
            <ThumbIcon up /> Thumbs up
          </button>
          <button type="button" aria-pressed={bool === false} onClick={() => setBool(false)} className={`${smallButton} aria-pressed:border-red-600 aria-pressed:bg-red-50 aria-pressed:text-red-900 dark:aria-pressed:bg-red-950 dark:aria-pressed:text-red-100`}>
            <ThumbIcon up={false} /> Thumbs down
          </button>
        </div>
      )}
      {dataType === 'CATEGORICAL' &&
        (categories.length > 0 ? (
          <label className="block">
            <span className="text-xs font-medium text-muted">Value</span>
            <select className={field} value={text} onChange={(e) => setText(e.target.value)}>
              <option value="">Choose…</option>
              {categories.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <label className="block">
            <span className="text-xs font-medium text-muted">Value</span>
            <input className={field} value={text} onChange={(e) => setText(e.target.value)} maxLength={500} placeholder="a label" />
          </label>
        ))}
      {dataType === 'NUMERIC' && (
        <label className="block">
          <span className="text-xs font-medium text-muted">Value{config && boundsText(config) ? ` (${boundsText(config)})` : ''}</span>
          <input
            className={field}
            type="number"
            step="any"
            inputMode="decimal"
            min={config?.min ?? undefined}
            max={config?.max ?? undefined}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </label>
      )}
      <label className="block">
        <span className="text-xs font-medium text-muted">Comment (optional)</span>
        <textarea className={`${field} h-14 py-1`} value={comment} onChange={(e) => setComment(e.target.value)} maxLength={10_000} />
      </label>
      {problem && (
        <p role="alert" className="text-xs text-red-800 dark:text-red-200">
          {problem}
        </p>
      )}
      <div className="flex gap-2">
        <button type="submit" className={primarySmallButton} disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save score'}
        </button>
        <button type="button" className={smallButton} onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
