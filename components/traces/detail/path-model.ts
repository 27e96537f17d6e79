// One trace's decision path as the Path tab draws it: each step of the path (consecutive
// equal decisions folded, as pathOf collapses them) with the options not taken, what the
// chosen option led to, and the agent/chain spans it happened under, flattened into rows
// where a supervisor's routing and each sub-agent's choices read as levels. Pure.
import { optionLabel } from '@/lib/features/insights/shared';
import { forkId } from '@/lib/features/paths/shared';
import { comparePathOrder, errorShare, noOutcomes, sameOption, sameStep, type Outcomes, type PathDecision, type Step } from '@/lib/features/paths/shared';
import { chosenConfidence, notChosenOptions, type NotChosenOption } from '@/lib/features/traces/shared';
import { toolSpanOf, type OutcomeSpan, type ToolSpanIndex } from '@/lib/features/traces/shared';
import type { DecisionPointRecord, EventRecord, EventType, RunStatus, SpanRecord } from '@/lib/features/traces/shared';

/** What the path reads of a span: the outline's summaries are enough. */
export type PathSpan = Pick<SpanRecord, 'id' | 'parentSpanId' | 'type' | 'name' | 'startedAt' | 'status'>;

/** Span types that group decisions into levels: an agent, or a chain (a LangGraph subgraph). */
const CONTAINER_TYPES = new Set<SpanRecord['type']>(['AGENT', 'CHAIN']);

export interface PathFork {
  /** Position in the collapsed path (the fleet's fork position). */
  index: number;
  step: Step;
  /** The decisions folded into this step, in path order. */
  decisions: DecisionPointRecord[];
  /** The steps before it: with this, the fork's id. */
  prefix: Step[];
  forkId: string;
  chosenConfidence: number | null;
  /** Options offered and not taken, each label once across the folded decisions. */
  alternatives: NotChosenOption[];
  /** What followed: the tool spans the chosen tool ran as (their statuses), else the trace's status for the last step. */
  led: { to: 'tool' | 'trace' | null; counts: Outcomes; status: RunStatus | null; spanId: string | null };
  /** The events that happened at this step (placeEvents), folded by type and name. */
  events: PathEventGroup[];
}

/** Events of one type and name at one place on the path, folded: 1,000 retries are one entry. */
export interface PathEventGroup {
  type: EventType;
  name: string;
  count: number;
  /** The first of them, to open. */
  firstId: string;
}

export type PathRow =
  | { kind: 'group'; key: string; span: PathSpan; depth: number }
  | { kind: 'fork'; key: string; fork: PathFork; depth: number };

/** The agent/chain spans above a decision, outermost first (a parent cycle is cut). */
function containersOf(parentSpanId: string | null, spans: Map<string, PathSpan>): PathSpan[] {
  const out: PathSpan[] = [];
  const seen = new Set<string>();
  for (let id = parentSpanId; id && !seen.has(id); ) {
    seen.add(id);
    const span = spans.get(id);
    if (!span) break;
    if (CONTAINER_TYPES.has(span.type)) out.push(span);
    id = span.parentSpanId;
  }
  return out.reverse();
}

function ledStatus(counts: Outcomes): RunStatus | null {
  if (counts.ERROR > 0) return 'ERROR';
  if (counts.RUNNING > 0) return 'RUNNING';
  if (counts.COMPLETED > 0) return 'COMPLETED';
  return null;
}

/** The trace's path steps with their decisions, in path order (pathOf's order and folding). */
export function pathForks<S extends PathSpan>(
  trace: { decisionPoints: readonly DecisionPointRecord[]; spans: readonly S[]; status: RunStatus },
  toolSpans: ToolSpanIndex<S & OutcomeSpan>,
): PathFork[] {
  const spanById = new Map<string, PathSpan>();
  for (const s of trace.spans) if (!spanById.has(s.id)) spanById.set(s.id, s);
  const ordered = trace.decisionPoints
    .map((d) => ({ d, key: { id: d.id, type: d.type, chosen: d.chosen, timestamp: d.timestamp, parentStartedAt: d.parentSpanId ? spanById.get(d.parentSpanId)?.startedAt ?? null : null } satisfies PathDecision }))
    .sort((a, b) => comparePathOrder(a.key, b.key))
    .map((x) => x.d);

  const forks: PathFork[] = [];
  for (const d of ordered) {
    const label = optionLabel(d.chosen ?? null);
    const last = forks[forks.length - 1];
    if (last && last.step.type === d.type && last.step.label === label) {
      last.step.repeats += 1;
      last.decisions.push(d);
      continue;
    }
    forks.push({
      index: forks.length,
      step: { type: d.type, label, repeats: 1 },
      decisions: [d],
      prefix: [],
      forkId: '',
      chosenConfidence: null,
      alternatives: [],
      led: { to: null, counts: noOutcomes(), status: null, spanId: null },
      events: [],
    });
  }
  // The prefix of each step is the steps before it with their final repeat counts.
  forks.forEach((f, i) => {
    f.prefix = forks.slice(0, i).map((p) => ({ ...p.step }));
    f.forkId = forkId(f.prefix);
    f.chosenConfidence = chosenConfidence(f.decisions[0]);
    const seen = new Set<string>();
    for (const d of f.decisions) {
      for (const alt of notChosenOptions(d)) {
        if (seen.has(alt.label)) continue;
        seen.add(alt.label);
        f.alternatives.push(alt);
      }
    }
    for (const d of f.decisions) {
      const tool = toolSpanOf(d, toolSpans);
      if (!tool) continue;
      f.led.to = 'tool';
      f.led.counts[tool.status] += 1;
      f.led.spanId ??= tool.id;
    }
    if (f.led.to === null && i === forks.length - 1) {
      f.led.to = 'trace';
      f.led.counts[trace.status] += 1;
    }
    f.led.status = ledStatus(f.led.counts);
  });
  return forks;
}

function foldEvents(groups: PathEventGroup[], e: Pick<EventRecord, 'id' | 'type' | 'name'>): void {
  const same = groups.find((g) => g.type === e.type && g.name === e.name);
  if (same) same.count += 1;
  else groups.push({ type: e.type, name: e.name, count: 1, firstId: e.id });
}

/**
 * Puts each event where it happened on the path: on the step whose tool span it was
 * recorded on, else on the step of the last decision at or before it in time; events
 * before the first decision are returned (they happened before the path began). Events
 * are read in time order and folded by type and name on each step. Sets `fork.events`.
 */
export function placeEvents<S extends PathSpan>(
  forks: PathFork[],
  events: ReadonlyArray<Pick<EventRecord, 'id' | 'type' | 'name' | 'spanId' | 'timestamp'>>,
  toolSpans: ToolSpanIndex<S & OutcomeSpan>,
): PathEventGroup[] {
  const before: PathEventGroup[] = [];
  for (const f of forks) f.events = [];
  const bySpan = new Map<string, PathFork>();
  const times: Array<{ t: number; fork: PathFork }> = [];
  for (const f of forks) {
    for (const d of f.decisions) {
      const tool = toolSpanOf(d, toolSpans);
      if (tool && !bySpan.has(tool.id)) bySpan.set(tool.id, f);
      times.push({ t: Date.parse(d.timestamp), fork: f });
    }
  }
  // Path order is time order but for ties; the latest step at a time wins below.
  times.sort((a, b) => a.t - b.t || a.fork.index - b.fork.index);
  const sorted = [...events].sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const e of sorted) {
    let fork = e.spanId ? bySpan.get(e.spanId) : undefined;
    if (!fork) {
      const t = Date.parse(e.timestamp);
      // The last decision at or before the event (binary search).
      let lo = 0;
      let hi = times.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (times[mid].t <= t) lo = mid + 1;
        else hi = mid;
      }
      fork = lo > 0 ? times[lo - 1].fork : undefined;
    }
    foldEvents(fork ? fork.events : before, e);
  }
  return before;
}

/** The forks as rows under the agent/chain spans they happened in, a group row where a level opens. */
export function pathRows(forks: readonly PathFork[], spans: readonly PathSpan[]): PathRow[] {
  const spanById = new Map<string, PathSpan>();
  for (const s of spans) if (!spanById.has(s.id)) spanById.set(s.id, s);
  const rows: PathRow[] = [];
  let open: PathSpan[] = [];
  for (const fork of forks) {
    const chain = containersOf(fork.decisions[0].parentSpanId, spanById);
    let shared = 0;
    while (shared < open.length && shared < chain.length && open[shared].id === chain[shared].id) shared++;
    for (let depth = shared; depth < chain.length; depth++) {
      rows.push({ kind: 'group', key: `g:${fork.index}:${chain[depth].id}`, span: chain[depth], depth });
    }
    open = chain;
    rows.push({ kind: 'fork', key: `f:${fork.index}`, fork, depth: chain.length });
  }
  return rows;
}

/** The fleet's figures for an option at a fork: traces through it, those that chose it, and their error share. */
export interface BranchFigures {
  offered: number;
  chosen: number;
  errorShareWhenChosen: number | null;
}

/** From the fleet's paths of the same name: traces sharing the prefix, and those of them that took the option next. */
export function branchFigures(
  paths: ReadonlyArray<{ steps: readonly Step[]; traces: number; outcomes: Outcomes }>,
  prefix: readonly Step[],
  option: { type: Step['type']; label: string },
): BranchFigures {
  const p = prefix.length;
  let offered = 0;
  let chosen = 0;
  const outcomes = noOutcomes();
  for (const path of paths) {
    if (path.steps.length <= p) continue;
    let match = true;
    for (let i = 0; i < p && match; i++) match = sameStep(path.steps[i], prefix[i]);
    if (!match) continue;
    offered += path.traces;
    if (!sameOption(path.steps[p], option)) continue;
    chosen += path.traces;
    outcomes.COMPLETED += path.outcomes.COMPLETED;
    outcomes.ERROR += path.outcomes.ERROR;
    outcomes.RUNNING += path.outcomes.RUNNING;
  }
  return { offered, chosen, errorShareWhenChosen: errorShare(outcomes) };
}
