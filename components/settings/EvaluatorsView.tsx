'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { evaluatorQueries, evaluatorRequests, type Evaluator, type EvaluatorWrite, type TryAnswer } from '@/lib/client/evaluators';
import { EVALUATOR_KINDS, type EvaluatorKind, type TargetOn } from '@/lib/features/evaluators/shared';
import { jsonTextarea } from '@/components/datasets/fields';
import { ErrorState, Spinner } from '@/components/ui/states';
import { useHydrationMarker } from '@/components/ui/time';
import { ConfirmDialog } from './ConfirmDialog';
import { card, errorText, fieldLabel, input, primaryButton, rowDangerButton, secondaryButton } from './styles';

/** What each kind does, and a config to start from. */
const KINDS: Record<EvaluatorKind, { help: string; example: unknown }> = {
  exact_match: { help: 'The output equals the item\'s expected output (or config.value); a field with config.field.', example: {} },
  contains: { help: 'The output contains config.value (or the expected output).', example: { value: 'refund', ignoreCase: true } },
  regex: { help: 'The output matches config.pattern.', example: { pattern: 'order #\\d+' } },
  json_schema: { help: 'The output is valid against config.schema (JSON Schema).', example: { schema: { type: 'object', required: ['answer'] } } },
  expected_decisions: { help: 'The share of decisions chosen as the item expects, the first wrong one named.', example: {} },
  max_cost: { help: 'The run cost at most config.max US dollars.', example: { max: 0.05 } },
  max_duration: { help: 'The run took at most config.max milliseconds.', example: { max: 30000 } },
  llm_judge: {
    help: 'An LLM reads the run through config.prompt and scores it 0 to 1 (or one of config.categories).',
    example: {
      prompt: 'Did the agent answer the question well, and take sensible steps?\n\nQuestion: {{input}}\nAnswer: {{output}}\nExpected: {{expected}}\n\nWhat it did:\n{{trajectory}}',
    },
  },
};

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

function targetText(e: Evaluator): string {
  if (e.target.on === 'experiments') return `runs of the experiments of ${e.target.dataset}`;
  const share = e.target.sampleRate < 1 ? `, ${Math.round(e.target.sampleRate * 1000) / 10}% sampled` : '';
  return `live traces${e.target.query ? ` matching ${e.target.query}` : ''}${share}`;
}

function TryResult({ answer }: { answer: TryAnswer }) {
  if (!answer.result) return <p className="text-sm text-muted">{answer.note}</p>;
  const { value, dataType, comment, metadata } = answer.result;
  const judge = (metadata as { judge?: { costUsd: number | null; durationMs: number } } | null)?.judge;
  return (
    <div className="rounded-md border border-border bg-bg p-2 text-sm" data-testid="try-result">
      <p>
        <span className="font-mono text-xs text-muted">{dataType}</span> <span className="font-semibold">{String(value)}</span>
        {judge && (
          <span className="text-muted">
            {' '}
            · judge {judge.durationMs} ms{judge.costUsd !== null && `, $${judge.costUsd.toFixed(6)}`}
          </span>
        )}
      </p>
      {comment && <p className="mt-1 break-words text-muted">{comment}</p>}
    </div>
  );
}

/** "Try on a trace": runs the evaluator (saved, or as written in the form) on one trace and shows the score it would give. */
function TryOnTrace({ evaluator }: { evaluator: () => Pick<EvaluatorWrite, 'kind' | 'config' | 'target'> | { id: string } | string }) {
  const id = useId();
  const [traceId, setTraceId] = useState('');
  const attempt = useMutation({
    mutationFn: async () => {
      const what = evaluator();
      if (typeof what === 'string') throw new Error(what);
      return evaluatorRequests.tryOn(traceId.trim(), what);
    },
  });
  return (
    <div className="flex flex-col gap-2" data-testid="try-on-trace">
      <div className="flex flex-wrap items-end gap-2">
        <label className="block min-w-48 flex-1">
          <span className={fieldLabel}>Try on a trace (its id)</span>
          <input className={input} value={traceId} onChange={(e) => setTraceId(e.target.value)} placeholder="trace id" aria-describedby={`${id}-err`} />
        </label>
        <button type="button" className={secondaryButton} disabled={traceId.trim() === '' || attempt.isPending} onClick={() => attempt.mutate()}>
          {attempt.isPending && <Spinner />}
          Try
        </button>
      </div>
      <p id={`${id}-err`} role="alert" className={`${errorText} empty:hidden`}>
        {attempt.error?.message ?? ''}
      </p>
      {attempt.data && <TryResult answer={attempt.data} />}
    </div>
  );
}

function EvaluatorForm({ judgeConfigured }: { judgeConfigured: boolean }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<EvaluatorKind>('contains');
  const [config, setConfig] = useState(pretty(KINDS.contains.example));
  const [scoreName, setScoreName] = useState('');
  const [on, setOn] = useState<TargetOn>('live');
  const [query, setQuery] = useState('');
  const [samplePercent, setSamplePercent] = useState('100');
  const [dataset, setDataset] = useState('');
  const [enabled, setEnabled] = useState(true);
  const [problem, setProblem] = useState<string | null>(null);

  const parsedConfig = (): unknown => {
    try {
      return config.trim() === '' ? {} : JSON.parse(config);
    } catch {
      throw new Error('Config must be JSON');
    }
  };
  const target = (): EvaluatorWrite['target'] =>
    on === 'experiments' ? { on, dataset: dataset.trim() } : { on, query: query.trim(), sampleRate: Number(samplePercent) / 100 };
  const save = useMutation({
    mutationFn: (body: EvaluatorWrite) => evaluatorRequests.create(body),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: evaluatorQueries.all() });
      setName('');
      setScoreName('');
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    try {
      setProblem(null);
      save.mutate({ name: name.trim(), kind, config: parsedConfig(), scoreName: scoreName.trim(), target: target(), enabled });
    } catch (err) {
      setProblem((err as Error).message);
    }
  };
  return (
    <form onSubmit={submit} aria-label="New evaluator" className="grid gap-3 sm:grid-cols-2">
      <label className="block">
        <span className={fieldLabel}>Name</span>
        <input className={input} value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. mentions refund" maxLength={100} />
      </label>
      <label className="block">
        <span className={fieldLabel}>Score name</span>
        <input className={input} value={scoreName} onChange={(e) => setScoreName(e.target.value)} placeholder="e.g. helpful" maxLength={200} />
      </label>
      <label className="block sm:col-span-2">
        <span className={fieldLabel}>Kind</span>
        <select
          className={input}
          value={kind}
          onChange={(e) => {
            const next = e.target.value as EvaluatorKind;
            setKind(next);
            setConfig(pretty(KINDS[next].example));
          }}
        >
          {EVALUATOR_KINDS.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
        <span className="mt-1 block text-xs text-muted">{KINDS[kind].help}</span>
        {kind === 'llm_judge' && !judgeConfigured && (
          <span className={`mt-1 block ${errorText}`}>The judge is not configured on this server: set JUDGE_BASE_URL and JUDGE_MODEL.</span>
        )}
      </label>
      <label className="block sm:col-span-2">
        <span className={fieldLabel}>Config (JSON)</span>
        <textarea className={`${jsonTextarea} h-28`} value={config} onChange={(e) => setConfig(e.target.value)} spellCheck={false} aria-label="Config (JSON)" />
      </label>
      <fieldset className="flex flex-wrap gap-4 sm:col-span-2">
        <legend className={fieldLabel}>Scores</legend>
        <label className="flex items-center gap-1.5 text-sm">
          <input type="radio" name={`${id}-on`} checked={on === 'live'} onChange={() => setOn('live')} /> live traces as they end
        </label>
        <label className="flex items-center gap-1.5 text-sm">
          <input type="radio" name={`${id}-on`} checked={on === 'experiments'} onChange={() => setOn('experiments')} /> runs of a dataset&apos;s experiments
        </label>
      </fieldset>
      {on === 'live' ? (
        <>
          <label className="block">
            <span className={fieldLabel}>Which traces (the list&apos;s query; empty: all)</span>
            <input className={input} value={query} onChange={(e) => setQuery(e.target.value)} placeholder="name=support&tag=prod" />
          </label>
          <label className="block">
            <span className={fieldLabel}>Sample (% of them)</span>
            <input className={input} value={samplePercent} onChange={(e) => setSamplePercent(e.target.value)} inputMode="decimal" />
          </label>
        </>
      ) : (
        <label className="block sm:col-span-2">
          <span className={fieldLabel}>Dataset</span>
          <input className={input} value={dataset} onChange={(e) => setDataset(e.target.value)} placeholder="support-questions" />
        </label>
      )}
      <label className="flex items-center gap-1.5 text-sm sm:col-span-2">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled
      </label>
      <div className="sm:col-span-2">
        <TryOnTrace
          evaluator={() => {
            try {
              return { kind, config: parsedConfig(), target: target() };
            } catch (err) {
              return (err as Error).message;
            }
          }}
        />
      </div>
      <p role="alert" className={`${errorText} sm:col-span-2 empty:hidden`}>
        {problem ?? save.error?.message ?? ''}
      </p>
      <div className="sm:col-span-2">
        <button type="submit" className={primaryButton} disabled={save.isPending}>
          {save.isPending && <Spinner />}
          Create evaluator
        </button>
      </div>
    </form>
  );
}

function JobCounts({ id }: { id: string }) {
  const jobs = useQuery(evaluatorQueries.jobs(id));
  if (!jobs.data) return null;
  const { queued, running, done, skipped, failed, lastError } = jobs.data;
  return (
    <p className="text-xs text-muted" data-testid="evaluator-jobs">
      {done} scored · {queued + running} waiting · {skipped} skipped · {failed} failed
      {lastError && <span className="block break-words text-red-800 dark:text-red-200">Last failure: {lastError}</span>}
    </p>
  );
}

function EvaluatorRow({ evaluator: e, onDelete }: { evaluator: Evaluator; onDelete: () => void }) {
  const queryClient = useQueryClient();
  const [trying, setTrying] = useState(false);
  const toggle = useMutation({
    mutationFn: () => evaluatorRequests.update(e.id, { enabled: !e.enabled }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: evaluatorQueries.all() }),
  });
  return (
    <li className="flex flex-col gap-2 p-3" data-testid="evaluator">
      <div className="flex flex-wrap items-start gap-x-4 gap-y-1">
        {/* At least 16rem wide: on a phone the actions wrap below rather than squeeze the text. */}
        <div className="min-w-0 flex-[1_1_16rem]">
          <p className="font-medium break-words">
            {e.name} {!e.enabled && <span className="text-xs font-normal text-muted">(off)</span>}
          </p>
          <p className="text-sm break-words text-muted">
            <span className="rounded bg-surface-2 px-1.5 py-px font-mono text-xs text-fg">{e.kind}</span> writes <span className="text-fg">{e.scoreName}</span> on{' '}
            {targetText(e)}
          </p>
          <JobCounts id={e.id} />
        </div>
        <div className="flex flex-wrap gap-1">
          <label className="flex items-center gap-1.5 px-2 text-sm">
            <input type="checkbox" checked={e.enabled} disabled={toggle.isPending} onChange={() => toggle.mutate()} aria-label={`${e.name} enabled`} /> On
          </label>
          <button type="button" className={secondaryButton} aria-expanded={trying} onClick={() => setTrying((v) => !v)}>
            Try on a trace
          </button>
          <button type="button" className={rowDangerButton} aria-label={`Delete ${e.name}`} onClick={onDelete}>
            Delete
          </button>
        </div>
      </div>
      {toggle.error && <p className={errorText}>{toggle.error.message}</p>}
      {trying && <TryOnTrace evaluator={() => ({ id: e.id })} />}
    </li>
  );
}

/** /settings/evaluators: rules and an LLM judge that score runs without a person. */
export function EvaluatorsView({ judgeConfigured }: { judgeConfigured: boolean }) {
  useHydrationMarker('evaluators');
  const queryClient = useQueryClient();
  const evaluators = useQuery(evaluatorQueries.list());
  const [deleting, setDeleting] = useState<Evaluator | null>(null);
  const remove = useMutation({
    mutationFn: (e: Evaluator) => evaluatorRequests.remove(e.id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: evaluatorQueries.all() });
      setDeleting(null);
    },
  });
  const rows = evaluators.data ?? [];
  return (
    <div className="flex max-w-4xl flex-col gap-6">
      <div>
        <h1 className="text-xl font-semibold tracking-tight">Evaluators</h1>
        <p className="mt-1 text-muted">
          An evaluator scores runs without a person: every live trace that ends and matches its query, or every run of a dataset&apos;s
          experiments. Each run gets at most one score from each evaluator, with the source EVAL.
        </p>
      </div>
      <section aria-labelledby="new-evaluator-title" className={card}>
        <h2 id="new-evaluator-title" className="mb-3 text-base font-semibold">
          New evaluator
        </h2>
        <EvaluatorForm judgeConfigured={judgeConfigured} />
      </section>
      <section aria-labelledby="evaluators-title" className="flex flex-col gap-2">
        <div className="flex items-center gap-3">
          <h2 id="evaluators-title" className="text-base font-semibold">
            Evaluators
          </h2>
          {evaluators.isFetching && <Spinner label="Loading evaluators" className="text-muted" />}
        </div>
        {evaluators.isError && !evaluators.data ? (
          <ErrorState title="Could not load the evaluators" message={evaluators.error.message} onRetry={() => void evaluators.refetch()} retrying={evaluators.isFetching} />
        ) : rows.length === 0 ? (
          <p className="rounded-lg border border-dashed border-border-strong bg-surface p-6 text-center text-muted">No evaluators yet: runs are scored only by people and clients.</p>
        ) : (
          <ul className="divide-y divide-border rounded-lg border border-border" data-testid="evaluators">
            {rows.map((e) => (
              <EvaluatorRow
                key={e.id}
                evaluator={e}
                onDelete={() => {
                  remove.reset();
                  setDeleting(e);
                }}
              />
            ))}
          </ul>
        )}
      </section>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete the evaluator “${deleting?.name ?? ''}”?`}
        confirmLabel="Delete evaluator"
        pending={remove.isPending}
        error={remove.error?.message ?? null}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      >
        The scores it wrote stay; runs waiting for it are no longer evaluated.
      </ConfirmDialog>
    </div>
  );
}
