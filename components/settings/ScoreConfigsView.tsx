'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { scoreQueries, scoreRequests, type ScoreConfigInput, type ScoreConfigRecord } from '@/lib/client/scores';
import { SCORE_DATA_TYPES, type ScoreDataType } from '@/lib/features/scores/shared';
import { ErrorState, Spinner } from '@/components/ui/states';
import { useHydrationMarker } from '@/components/ui/time';
import { ConfirmDialog } from './ConfirmDialog';
import { card, errorText, fieldLabel, input, primaryButton, rowDangerButton, secondaryButton } from './styles';

const TYPE_HELP: Record<ScoreDataType, string> = {
  BOOLEAN: 'Boolean: thumbs up or down',
  CATEGORICAL: 'Categorical: one of a list of labels',
  NUMERIC: 'Numeric: a number, optionally within bounds',
};

/** A bound as typed: empty is none; anything else must read as a number (the API names it otherwise). */
function boundOf(text: string): number | null {
  return text.trim() === '' ? null : Number(text.trim());
}

function ConfigForm({ initial, onDone }: { initial?: ScoreConfigRecord; onDone: () => void }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [name, setName] = useState(initial?.name ?? '');
  const [dataType, setDataType] = useState<ScoreDataType>(initial?.dataType ?? 'BOOLEAN');
  const [categories, setCategories] = useState(initial?.categories.join('\n') ?? '');
  const [min, setMin] = useState(initial?.min?.toString() ?? '');
  const [max, setMax] = useState(initial?.max?.toString() ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const save = useMutation({
    mutationFn: (body: ScoreConfigInput) => (initial ? scoreRequests.updateConfig(initial.id, body) : scoreRequests.createConfig(body)),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: scoreQueries.configs().queryKey });
      if (!initial) {
        setName('');
        setCategories('');
        setMin('');
        setMax('');
        setDescription('');
      }
      onDone();
    },
  });
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const bad = dataType === 'NUMERIC' ? [['Minimum', min], ['Maximum', max]].find(([, v]) => Number.isNaN(boundOf(v))) : undefined;
    setProblem(bad ? `${bad[0]} must be a number` : null);
    if (bad) return;
    save.mutate({
      name: name.trim(),
      dataType,
      categories: dataType === 'CATEGORICAL' ? categories.split('\n').map((c) => c.trim()).filter((c) => c !== '') : [],
      min: dataType === 'NUMERIC' ? boundOf(min) : null,
      max: dataType === 'NUMERIC' ? boundOf(max) : null,
      description: description.trim() === '' ? null : description.trim(),
    });
  };
  return (
    <form onSubmit={submit} aria-label={initial ? `Edit score config ${initial.name}` : 'New score config'} className="grid gap-3 sm:grid-cols-2">
      <label className="block">
        <span className={fieldLabel}>Name</span>
        <input className={input} value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. helpful" maxLength={200} />
      </label>
      <label className="block">
        <span className={fieldLabel}>Data type</span>
        <select className={input} value={dataType} onChange={(e) => setDataType(e.target.value as ScoreDataType)}>
          {SCORE_DATA_TYPES.map((t) => (
            <option key={t} value={t}>
              {TYPE_HELP[t]}
            </option>
          ))}
        </select>
      </label>
      {dataType === 'CATEGORICAL' && (
        <label className="block sm:col-span-2">
          <span className={fieldLabel}>Categories (one a line; none: any label)</span>
          <textarea className={`${input} h-20 py-1`} value={categories} onChange={(e) => setCategories(e.target.value)} />
        </label>
      )}
      {dataType === 'NUMERIC' && (
        <>
          <label className="block">
            <span className={fieldLabel}>Minimum (optional)</span>
            <input className={input} value={min} onChange={(e) => setMin(e.target.value)} inputMode="decimal" />
          </label>
          <label className="block">
            <span className={fieldLabel}>Maximum (optional)</span>
            <input className={input} value={max} onChange={(e) => setMax(e.target.value)} inputMode="decimal" />
          </label>
        </>
      )}
      <label className="block sm:col-span-2">
        <span className={fieldLabel}>Description (optional, shown to annotators)</span>
        <input className={input} value={description} onChange={(e) => setDescription(e.target.value)} maxLength={2000} aria-describedby={`${id}-err`} />
      </label>
      <p id={`${id}-err`} role="alert" className={`${errorText} sm:col-span-2 empty:hidden`}>
        {problem ?? save.error?.message ?? ''}
      </p>
      <div className="flex gap-2 sm:col-span-2">
        <button type="submit" className={primaryButton} disabled={save.isPending}>
          {save.isPending && <Spinner />}
          {initial ? 'Save changes' : 'Create config'}
        </button>
        {initial && (
          <button type="button" className={secondaryButton} onClick={onDone}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

function rule(config: ScoreConfigRecord): string {
  if (config.dataType === 'BOOLEAN') return 'thumbs up or down';
  if (config.dataType === 'CATEGORICAL') return config.categories.length === 0 ? 'any label' : config.categories.join(', ');
  if (config.min !== null && config.max !== null) return `${config.min} to ${config.max}`;
  if (config.min !== null) return `at least ${config.min}`;
  if (config.max !== null) return `at most ${config.max}`;
  return 'any number';
}

/** /settings/scores: what a score of each name must be, so annotations and API writes agree. */
export function ScoreConfigsView() {
  useHydrationMarker('score-configs');
  const queryClient = useQueryClient();
  const configs = useQuery(scoreQueries.configs());
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ScoreConfigRecord | null>(null);
  const remove = useMutation({
    mutationFn: (config: ScoreConfigRecord) => scoreRequests.removeConfig(config.id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: scoreQueries.configs().queryKey });
      setDeleting(null);
    },
  });
  const rows = configs.data ?? [];
  return (
    <div className="flex max-w-4xl flex-col gap-6">
      <div>
        <h1 className="text-xl font-semibold tracking-tight">Score configs</h1>
        <p className="mt-1 text-muted">
          A config says what a score of its name must be. Annotators get its controls (thumbs, categories, a number within bounds), and
          any score of that name, from a person or a key, that does not fit is refused.
        </p>
      </div>
      <section aria-labelledby="new-config-title" className={card}>
        <h2 id="new-config-title" className="mb-3 text-base font-semibold">
          New config
        </h2>
        <ConfigForm onDone={() => undefined} />
      </section>
      <section aria-labelledby="configs-title" className="flex flex-col gap-2">
        <div className="flex items-center gap-3">
          <h2 id="configs-title" className="text-base font-semibold">
            Configs
          </h2>
          {configs.isFetching && <Spinner label="Loading score configs" className="text-muted" />}
        </div>
        {configs.isError && !configs.data ? (
          <ErrorState title="Could not load the score configs" message={configs.error.message} onRetry={() => void configs.refetch()} retrying={configs.isFetching} />
        ) : rows.length === 0 ? (
          <p className="rounded-lg border border-dashed border-border-strong bg-surface p-6 text-center text-muted">
            No score configs yet: scores of any name and type are accepted.
          </p>
        ) : (
          <ul className="divide-y divide-border rounded-lg border border-border" data-testid="score-configs">
            {rows.map((c) => (
              <li key={c.id} className="p-3" data-testid="score-config">
                {editing === c.id ? (
                  <ConfigForm initial={c} onDone={() => setEditing(null)} />
                ) : (
                  <div className="flex flex-wrap items-start gap-x-4 gap-y-1">
                    <div className="min-w-0 flex-1">
                      <p className="font-medium break-words">{c.name}</p>
                      <p className="text-sm text-muted break-words">
                        <span className="rounded bg-surface-2 px-1.5 py-px font-mono text-xs text-fg">{c.dataType}</span> {rule(c)}
                      </p>
                      {c.description && <p className="mt-1 text-sm break-words">{c.description}</p>}
                    </div>
                    <div className="flex gap-1">
                      <button type="button" className={secondaryButton} aria-label={`Edit ${c.name}`} onClick={() => setEditing(c.id)}>
                        Edit
                      </button>
                      <button
                        type="button"
                        className={rowDangerButton}
                        aria-label={`Delete ${c.name}`}
                        onClick={() => {
                          remove.reset();
                          setDeleting(c);
                        }}
                      >
                        Delete
                      </button>
                    </div>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete the config “${deleting?.name ?? ''}”?`}
        confirmLabel="Delete config"
        pending={remove.isPending}
        error={remove.error?.message ?? null}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      >
        Scores of this name stay as they are; new ones are no longer checked against it.
      </ConfirmDialog>
    </div>
  );
}
