'use client';

import Link from 'next/link';
import { useState } from 'react';
import type { PathInsights } from '@/lib/features/paths';
import type { Step } from '@/lib/features/paths/shared';
import { formatCost, formatDuration } from '@/lib/core/format';
import { DECISION_LABEL } from '@/components/ui/badges';
import { formatShare } from '../theme';
import { stepText } from './flow';
import { targetHref, type Window } from './targets';

/** Rows shown before "Show all": the page stays short for a fleet with thousands of paths. */
const FIRST_ROWS = 20;

const TH = 'px-2 py-1.5 text-left text-xs font-medium text-muted';
const TD = 'px-2 py-1.5 align-top tabular';

function Steps({ steps, limit = 8 }: { steps: readonly Step[]; limit?: number }) {
  if (steps.length === 0) return <span className="text-muted">No decisions</span>;
  const shown = steps.slice(0, limit);
  return (
    <ol className="flex flex-wrap items-center gap-1" aria-label={`${steps.length} steps`}>
      {shown.map((s, i) => (
        <li key={i} className="flex items-center gap-1">
          {i > 0 && <span aria-hidden="true" className="text-muted">→</span>}
          <code className="rounded bg-surface-2 px-1 font-mono text-[12px]" title={`${DECISION_LABEL[s.type]}: ${s.label}`}>
            {stepText(s)}
          </code>
        </li>
      ))}
      {steps.length > limit && <li className="text-muted">+{steps.length - limit} more</li>}
    </ol>
  );
}

function ShowAll({ total, all, onAll }: { total: number; all: boolean; onAll: () => void }) {
  if (all || total <= FIRST_ROWS) return null;
  return (
    <button type="button" onClick={onAll} className="self-start text-sm font-medium text-accent hover:underline">
      Show all {total}
    </button>
  );
}

/** Every path with its traces' outcomes and figures; each row lists its traces. */
export function PathsTable({ data, req }: { data: PathInsights; req: Window }) {
  const [all, setAll] = useState(false);
  const rows = all ? data.paths : data.paths.slice(0, FIRST_ROWS);
  return (
    <section aria-labelledby="paths-heading" className="flex flex-col gap-2">
      <h2 id="paths-heading" className="text-base font-semibold">
        Top paths
      </h2>
      <div className="overflow-x-auto rounded-lg border border-border">
        <table className="w-full min-w-[44rem] text-sm" data-testid="paths-table">
          <thead className="bg-surface">
            <tr>
              <th className={TH}>Path</th>
              <th className={`${TH} text-right`}>Traces</th>
              <th className={`${TH} text-right`}>Share</th>
              <th className={`${TH} text-right`}>Error share</th>
              <th className={`${TH} text-right`}>Avg cost</th>
              <th className={`${TH} text-right`}>p50 / p95</th>
              <th className={`${TH} text-right`}>Judged right</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((p) => (
              <tr key={p.id} className="border-t border-border" data-path={p.id}>
                <td className={`${TD} min-w-[16rem]`}>
                  <Steps steps={p.steps} />
                </td>
                <td className={`${TD} text-right`}>
                  <Link href={targetHref(req, { kind: 'path', pathId: p.id })} className="font-medium text-accent hover:underline" aria-label={`${p.traces} traces on this path: list them`}>
                    {p.traces}
                  </Link>
                  <div className="text-xs text-muted">
                    {p.outcomes.COMPLETED} ok · {p.outcomes.ERROR} err{p.outcomes.RUNNING ? ` · ${p.outcomes.RUNNING} running` : ''}
                  </div>
                </td>
                <td className={`${TD} text-right`}>{formatShare(p.share)}</td>
                <td className={`${TD} text-right`}>{formatShare(p.errorTraceShare)}</td>
                <td className={`${TD} text-right`}>{formatCost(p.avgCostUsd)}</td>
                <td className={`${TD} text-right whitespace-nowrap`}>
                  {formatDuration(p.p50DurationMs)} / {formatDuration(p.p95DurationMs)}
                </td>
                <td className={`${TD} text-right`}>{formatShare(p.judgedRightShare)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ShowAll total={data.paths.length} all={all} onAll={() => setAll(true)} />
    </section>
  );
}

/** Every option chosen at a fork, the options whose error share differs most from their fork's first. */
export function ForksTable({ data, req }: { data: PathInsights; req: Window }) {
  const [all, setAll] = useState(false);
  if (data.forks.length === 0) return null;
  const rows = all ? data.forks : data.forks.slice(0, FIRST_ROWS);
  return (
    <section aria-labelledby="forks-heading" className="flex flex-col gap-2">
      <div>
        <h2 id="forks-heading" className="text-base font-semibold">
          Forks
        </h2>
        <p className="text-sm text-muted">
          Where runs with the same steps so far chose differently; options whose error share differs most from their fork&apos;s come first.
        </p>
      </div>
      <div className="overflow-x-auto rounded-lg border border-border">
        <table className="w-full min-w-[44rem] text-sm" data-testid="forks-table">
          <thead className="bg-surface">
            <tr>
              <th className={TH}>After</th>
              <th className={TH}>Chose</th>
              <th className={`${TH} text-right`}>Traces</th>
              <th className={`${TH} text-right`}>Error share when chosen</th>
              <th className={`${TH} text-right`}>At the fork</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((f) => (
              <tr key={`${f.id}:${f.type}:${f.label}`} className="border-t border-border" data-fork={f.id} data-option={f.label}>
                <td className={`${TD} min-w-[12rem]`}>
                  {f.position === 0 ? (
                    <span className="text-muted">{data.agents && data.agents.length > 1 ? 'First decision (any agent)' : 'First decision'}</span>
                  ) : (
                    <Steps steps={f.prefix} limit={4} />
                  )}
                </td>
                <td className={TD}>
                  <span className="text-xs text-muted">{DECISION_LABEL[f.type]}</span>{' '}
                  <code className="font-mono text-[13px]">{f.label}</code>
                </td>
                <td className={`${TD} text-right`}>
                  <Link
                    href={targetHref(req, { kind: 'fork', forkId: f.id, type: f.type, label: f.label })}
                    className="font-medium text-accent hover:underline"
                    aria-label={`${f.traces} traces chose ${f.label} here: list them`}
                  >
                    {f.traces}
                  </Link>
                </td>
                <td className={`${TD} text-right`}>{formatShare(f.errorTraceShareWhenChosen)}</td>
                <td className={`${TD} text-right`}>{formatShare(f.forkErrorTraceShare)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ShowAll total={data.forks.length} all={all} onAll={() => setAll(true)} />
    </section>
  );
}
