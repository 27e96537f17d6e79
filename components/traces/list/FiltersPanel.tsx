'use client';

import { useState, type FormEvent, type ReactNode } from 'react';
import { humanizeEnum } from '@/lib/core/format';
import { parseScoreCondition } from '@/lib/features/scores/shared';
import { TIME_RANGE_LABELS } from '@/lib/client/list-filters';
import { DECISION_TYPES, TIME_RANGE_KEYS, type DecisionType, type ListParams, type TimeRange, type TraceFilterParams } from '@/lib/features/traces/shared';
import { SuggestionList, useSuggesting } from '@/components/ui/Suggestions';
import { Popover } from './Popover';
import { changeFilters, type ListNavigate } from './useListUrl';

/** The time range presets: `range`, a window ending when the list is read (never a fixed `from`). */
const TIME_PRESETS = TIME_RANGE_KEYS.map((key) => ({ key, label: TIME_RANGE_LABELS[key] }));

/** The panel's filters: the ones without a control in the bar. */
const PANEL_KEYS = [
  'tag',
  'from',
  'to',
  'range',
  'minDurationMs',
  'maxDurationMs',
  'minCost',
  'maxCost',
  'hasErrors',
  'metadata',
  'decisionType',
  'chosen',
  'userId',
  'reviewed',
  'judged',
  'score',
] as const;

/** The review select: reviewed or not, or judged right or wrong (a judged decision is reviewed). */
type Review = '' | 'reviewed' | 'unreviewed' | 'right' | 'wrong';

function reviewOf(params: ListParams): Review {
  if (params.judged) return params.judged;
  if (params.reviewed === undefined) return '';
  return params.reviewed ? 'reviewed' : 'unreviewed';
}

/** An ISO instant as a datetime-local field's value, in the viewer's zone. */
function toLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

interface Draft {
  tags: string[];
  tagText: string;
  range: '' | TimeRange | 'custom';
  from: string;
  to: string;
  minDuration: string;
  maxDuration: string;
  minCost: string;
  maxCost: string;
  hasErrors: '' | 'true' | 'false';
  metadata: [string, string][];
  metaKey: string;
  metaValue: string;
  decisionType: '' | DecisionType;
  chosen: string;
  userId: string;
  review: Review;
  scores: [string, string][];
  scoreName: string;
  scoreCondition: string;
}

const seconds = (ms: number | undefined) => (ms === undefined ? '' : String(ms / 1000));

function draftOf(params: ListParams): Draft {
  return {
    tags: params.tag ?? [],
    tagText: '',
    range: params.range ?? (params.from || params.to ? 'custom' : ''),
    from: toLocalInput(params.from),
    to: toLocalInput(params.to),
    minDuration: seconds(params.minDurationMs),
    maxDuration: seconds(params.maxDurationMs),
    minCost: params.minCost === undefined ? '' : String(params.minCost),
    maxCost: params.maxCost === undefined ? '' : String(params.maxCost),
    hasErrors: params.hasErrors === undefined ? '' : params.hasErrors ? 'true' : 'false',
    metadata: Object.entries(params.metadata ?? {}),
    metaKey: '',
    metaValue: '',
    decisionType: params.decisionType ?? '',
    chosen: params.chosen ?? '',
    userId: params.userId ?? '',
    review: reviewOf(params),
    scores: Object.entries(params.score ?? {}),
    scoreName: '',
    scoreCondition: '',
  };
}

/** The draft as filters, or the first thing wrong with it. */
function filtersOf(d: Draft): { filters: TraceFilterParams } | { problem: string } {
  const number = (raw: string, what: string, scale = 1): number | undefined | string => {
    if (raw.trim() === '') return undefined;
    const n = Number(raw);
    return Number.isFinite(n) && n >= 0 ? n * scale : `${what} must be a number of 0 or more.`;
  };
  const values = {
    minDurationMs: number(d.minDuration, 'Minimum duration', 1000),
    maxDurationMs: number(d.maxDuration, 'Maximum duration', 1000),
    minCost: number(d.minCost, 'Minimum cost'),
    maxCost: number(d.maxCost, 'Maximum cost'),
  };
  for (const v of Object.values(values)) if (typeof v === 'string') return { problem: v };
  const range = TIME_RANGE_KEYS.find((key) => key === d.range);
  const from = d.range === 'custom' ? fromLocalInput(d.from) : undefined;
  const to = d.range === 'custom' ? fromLocalInput(d.to) : undefined;
  if (from && to && from > to) return { problem: 'From must not be after To.' };
  const tags = [...d.tags, ...(d.tagText.trim() ? [d.tagText.trim()] : [])];
  const metadata = Object.fromEntries([...d.metadata, ...(d.metaKey.trim() ? [[d.metaKey.trim(), d.metaValue] as [string, string]] : [])]);
  const scoreEntries = [...d.scores, ...(d.scoreName.trim() ? [[d.scoreName.trim(), d.scoreCondition.trim() || '*'] as [string, string]] : [])];
  for (const [name, condition] of scoreEntries) {
    const parsed = parseScoreCondition(condition);
    if ('problem' in parsed) return { problem: `Score ${name}: ${parsed.problem}.` };
  }
  const score = Object.fromEntries(scoreEntries);
  return {
    filters: {
      tag: tags.length ? [...new Set(tags)] : undefined,
      from,
      to,
      range,
      ...(values as Record<keyof typeof values, number | undefined>),
      hasErrors: d.hasErrors === '' ? undefined : d.hasErrors === 'true',
      metadata: Object.keys(metadata).length ? metadata : undefined,
      decisionType: d.decisionType || undefined,
      chosen: d.chosen || undefined,
      userId: d.userId.trim() || undefined,
      reviewed: d.review === 'reviewed' ? true : d.review === 'unreviewed' ? false : undefined,
      judged: d.review === 'right' || d.review === 'wrong' ? d.review : undefined,
      score: Object.keys(score).length ? score : undefined,
    },
  };
}

/** How many of the panel's filters are set (for the button's badge). */
export function panelFilterCount(params: ListParams): number {
  return PANEL_KEYS.filter((k) => {
    const v = params[k];
    if (v === undefined || v === '') return false;
    if (Array.isArray(v)) return v.length > 0;
    if (typeof v === 'object') return Object.keys(v).length > 0;
    return true;
  }).length;
}

const field = 'h-8 w-full min-w-0 rounded-md border border-border-strong bg-bg px-2 text-sm text-fg placeholder:text-muted';

function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium text-muted">
        {label}
      </label>
      {children}
    </div>
  );
}

function Removable({ items, onRemove, what }: { items: string[]; onRemove: (i: number) => void; what: string }) {
  if (items.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-1" aria-label={`${what} set`}>
      {items.map((item, i) => (
        <li key={item} className="inline-flex max-w-full items-center gap-1 rounded border border-border bg-surface-2 py-px pr-0.5 pl-1.5 text-xs">
          <span className="truncate">{item}</span>
          <button type="button" onClick={() => onRemove(i)} aria-label={`Remove ${what.toLowerCase()} ${item}`} className="rounded px-1 text-muted hover:text-fg">
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

function PanelForm({ params, navigate, close }: { params: ListParams; navigate: ListNavigate; close: () => void }) {
  const [d, setD] = useState<Draft>(() => draftOf(params));
  const [problem, setProblem] = useState<string | null>(null);
  const tagSuggest = useSuggesting('filter-tag-suggestions');
  const userSuggest = useSuggesting('filter-user-suggestions');
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setD((prev) => ({ ...prev, [key]: value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const result = filtersOf(d);
    if ('problem' in result) {
      setProblem(result.problem);
      return;
    }
    navigate(changeFilters(result.filters));
    close();
  };
  const clear = () => {
    navigate(changeFilters(Object.fromEntries(PANEL_KEYS.map((k) => [k, undefined]))));
    close();
  };
  const addTag = () => {
    const t = d.tagText.trim();
    if (t && !d.tags.includes(t)) setD((prev) => ({ ...prev, tags: [...prev.tags, t], tagText: '' }));
    else set('tagText', '');
  };
  const addScore = () => {
    const name = d.scoreName.trim();
    if (!name) return;
    const condition = d.scoreCondition.trim() || '*';
    setD((prev) => ({ ...prev, scores: [...prev.scores.filter(([x]) => x !== name), [name, condition]], scoreName: '', scoreCondition: '' }));
  };
  const addMeta = () => {
    const k = d.metaKey.trim();
    if (!k) return;
    setD((prev) => ({ ...prev, metadata: [...prev.metadata.filter(([x]) => x !== k), [k, prev.metaValue]], metaKey: '', metaValue: '' }));
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-3" aria-describedby={problem ? 'filters-problem' : undefined}>
      <div className="flex flex-col gap-1">
        <Field id="filter-tag" label="Tags (all of them)">
          <div className="flex gap-1">
            <input
              id="filter-tag"
              {...tagSuggest.inputProps}
              className={field}
              value={d.tagText}
              placeholder="A tag, then Add"
              onChange={(e) => set('tagText', e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && d.tagText.trim()) {
                  e.preventDefault();
                  addTag();
                }
              }}
            />
            <button type="button" onClick={addTag} className="h-8 shrink-0 rounded-md border border-border-strong px-2 text-sm hover:bg-surface-2">
              Add
            </button>
          </div>
        </Field>
        <SuggestionList id="filter-tag-suggestions" field="tag" text={d.tagText.trim()} active={tagSuggest.active} />
        <Removable items={d.tags} what="Tag" onRemove={(i) => set('tags', d.tags.filter((_, j) => j !== i))} />
      </div>

      <Field id="filter-range" label="Started">
        <select id="filter-range" className={field} value={d.range} onChange={(e) => set('range', e.target.value as Draft['range'])}>
          <option value="">Any time</option>
          {TIME_PRESETS.map((p) => (
            <option key={p.key} value={p.key}>
              {p.label}
            </option>
          ))}
          <option value="custom">Custom range…</option>
        </select>
      </Field>
      {d.range === 'custom' && (
        <div className="grid grid-cols-2 gap-2">
          <Field id="filter-from" label="From (your time)">
            <input id="filter-from" type="datetime-local" className={field} value={d.from} onChange={(e) => set('from', e.target.value)} />
          </Field>
          <Field id="filter-to" label="To (your time)">
            <input id="filter-to" type="datetime-local" className={field} value={d.to} onChange={(e) => set('to', e.target.value)} />
          </Field>
        </div>
      )}

      <div className="grid grid-cols-2 gap-2">
        <Field id="filter-min-duration" label="Min duration (s)">
          <input id="filter-min-duration" inputMode="decimal" className={field} value={d.minDuration} onChange={(e) => set('minDuration', e.target.value)} />
        </Field>
        <Field id="filter-max-duration" label="Max duration (s)">
          <input id="filter-max-duration" inputMode="decimal" className={field} value={d.maxDuration} onChange={(e) => set('maxDuration', e.target.value)} />
        </Field>
        <Field id="filter-min-cost" label="Min cost (USD)">
          <input id="filter-min-cost" inputMode="decimal" className={field} value={d.minCost} onChange={(e) => set('minCost', e.target.value)} />
        </Field>
        <Field id="filter-max-cost" label="Max cost (USD)">
          <input id="filter-max-cost" inputMode="decimal" className={field} value={d.maxCost} onChange={(e) => set('maxCost', e.target.value)} />
        </Field>
      </div>

      <div className="grid grid-cols-2 gap-2">
        <Field id="filter-errors" label="Errors">
          <select id="filter-errors" className={field} value={d.hasErrors} onChange={(e) => set('hasErrors', e.target.value as Draft['hasErrors'])}>
            <option value="">Any</option>
            <option value="true">Something failed</option>
            <option value="false">Nothing failed</option>
          </select>
        </Field>
        <Field id="filter-user" label="User ID">
          <input id="filter-user" {...userSuggest.inputProps} className={field} value={d.userId} placeholder="Exact user ID" onChange={(e) => set('userId', e.target.value)} />
          <SuggestionList id="filter-user-suggestions" field="userId" text={d.userId.trim()} active={userSuggest.active} />
        </Field>
      </div>

      <div className="flex flex-col gap-1">
        <div className="grid grid-cols-[1fr_1fr_auto] items-end gap-1">
          <Field id="filter-meta-key" label="Metadata key">
            <input id="filter-meta-key" className={field} value={d.metaKey} onChange={(e) => set('metaKey', e.target.value)} />
          </Field>
          <Field id="filter-meta-value" label="Metadata value">
            <input id="filter-meta-value" className={field} value={d.metaValue} onChange={(e) => set('metaValue', e.target.value)} />
          </Field>
          <button type="button" onClick={addMeta} className="h-8 rounded-md border border-border-strong px-2 text-sm hover:bg-surface-2">
            Add
          </button>
        </div>
        <Removable
          items={d.metadata.map(([k, v]) => `${k} = ${v}`)}
          what="Metadata"
          onRemove={(i) => set('metadata', d.metadata.filter((_, j) => j !== i))}
        />
      </div>

      <div className="grid grid-cols-2 gap-2">
        <Field id="filter-decision-type" label="Decision type">
          <select id="filter-decision-type" className={field} value={d.decisionType} onChange={(e) => set('decisionType', e.target.value as Draft['decisionType'])}>
            <option value="">Any</option>
            {DECISION_TYPES.map((t) => (
              <option key={t} value={t}>
                {humanizeEnum(t)}
              </option>
            ))}
          </select>
        </Field>
        <Field id="filter-chosen" label="Chosen option">
          <input id="filter-chosen" className={field} value={d.chosen} placeholder="Exact label" onChange={(e) => set('chosen', e.target.value)} />
        </Field>
        <Field id="filter-review" label="Review (same decision)">
          <select id="filter-review" className={field} value={d.review} onChange={(e) => set('review', e.target.value as Review)}>
            <option value="">Any</option>
            <option value="reviewed">Reviewed</option>
            <option value="unreviewed">Not reviewed</option>
            <option value="right">Judged right</option>
            <option value="wrong">Judged wrong</option>
          </select>
        </Field>
      </div>

      <div className="flex flex-col gap-1">
        <div className="grid grid-cols-[1fr_1fr_auto] items-end gap-1">
          <Field id="filter-score-name" label="Score name">
            <input id="filter-score-name" className={field} value={d.scoreName} onChange={(e) => set('scoreName', e.target.value)} />
          </Field>
          <Field id="filter-score-condition" label="Condition">
            <input
              id="filter-score-condition"
              className={field}
              value={d.scoreCondition}
              placeholder=">=0.8, *, a value"
              title="* any score; >=, >, <=, < a number: the trace's average; a value: some score equal to it"
              onChange={(e) => set('scoreCondition', e.target.value)}
            />
          </Field>
          <button type="button" onClick={addScore} className="h-8 rounded-md border border-border-strong px-2 text-sm hover:bg-surface-2">
            Add
          </button>
        </div>
        <Removable items={d.scores.map(([k, v]) => `${k} ${v}`)} what="Score" onRemove={(i) => set('scores', d.scores.filter((_, j) => j !== i))} />
      </div>

      {problem && (
        <p id="filters-problem" role="alert" className="text-sm text-red-700 dark:text-red-300">
          {problem}
        </p>
      )}
      <div className="flex items-center justify-end gap-2">
        <button type="button" onClick={clear} className="h-8 px-2 text-sm text-accent hover:underline">
          Clear these
        </button>
        <button type="submit" className="h-8 rounded-md bg-accent px-3 text-sm font-medium text-bg hover:opacity-90">
          Apply filters
        </button>
      </div>
    </form>
  );
}

/**
 * Every filter the bar has no room for, one click away: tags, time range, duration, cost,
 * errors, user, metadata, decision type and chosen option. Applied together to the URL.
 */
export function FiltersPanel({ params, navigate }: { params: ListParams; navigate: ListNavigate }) {
  return (
    <Popover label="Filters" align="auto" badge={panelFilterCount(params)} panelLabel="More filters" width="sm:w-[22rem]" title="Tags, time, duration, cost, errors, user, metadata, decisions, reviews, scores">
      {(close) => <PanelForm params={params} navigate={navigate} close={close} />}
    </Popover>
  );
}
