// decision_stats, decision_paths, compare_traces, similar_runs: what agents decide, the
// paths their decisions make, where two runs parted and which runs took the same turn.
import 'server-only';
import * as z from 'zod';
import type { ServiceContext } from '@/lib/core/context';
import { decisionInsights, insightsParamsFromValues } from '@/lib/features/insights';
import { partedRuns, pathInsights, SIMILAR_RUNS_LIMIT, similarRuns, type PartedRun } from '@/lib/features/paths';
import type { Step } from '@/lib/features/paths/shared';
import { DECISION_TYPES, RUN_STATUSES } from '@/lib/features/traces/shared';
import { formatCost, formatDuration, pathLine, percent, plural, stepText } from '../text';
import { defineTool, type ToolRegistry } from './define';

/** Paths and forks decision_paths lists (the most travelled, the most telling). */
const TOP = 10;

const window = {
  from: z.string().optional().describe('ISO 8601: traces that started at or after it (default: 24 hours before to)'),
  to: z.string().optional().describe('ISO 8601: traces that started before it (default: now)'),
};

const stepShape = z.object({ type: z.enum(DECISION_TYPES), label: z.string(), repeats: z.number() });
const outcomesShape = z.object({ COMPLETED: z.number(), ERROR: z.number(), RUNNING: z.number() });
const runShape = z.object({ id: z.string(), name: z.string(), status: z.enum(RUN_STATUSES), startedAt: z.string(), path: z.array(stepShape) });

export function registerDecisionTools(tools: ToolRegistry, ctx: ServiceContext): void {
  defineTool(tools, 'decision_stats', {
    title: 'Decision statistics',
    description:
      'What agents chose in a window: per option, how often it was chosen and offered, the share of runs that failed when it was chosen, and how often reviewers judged it right.',
    input: { name: z.string().optional().describe('The exact trace (agent) name'), decisionType: z.enum(DECISION_TYPES).optional(), ...window },
    output: {
      from: z.string(),
      to: z.string(),
      traces: z.number(),
      decisionPoints: z.number(),
      options: z.array(
        z.object({
          type: z.enum(DECISION_TYPES),
          label: z.string(),
          chosen: z.number(),
          offered: z.number(),
          errorShareWhenChosen: z.number().nullable(),
          reviewed: z.number(),
          judgedRightShare: z.number().nullable(),
        }),
      ),
    },
    readOnly: true,
    async run(args) {
      const stats = await decisionInsights(ctx, insightsParamsFromValues({ from: args.from, to: args.to, name: args.name }));
      const options = stats.options
        .filter((o) => args.decisionType === undefined || o.type === args.decisionType)
        .map((o) => ({
          type: o.type,
          label: o.label,
          chosen: o.chosen,
          offered: o.offered,
          errorShareWhenChosen: o.errorTraceShareWhenChosen,
          reviewed: o.reviewed ?? 0,
          judgedRightShare: o.judgedRightShare ?? null,
        }));
      const lines = [`${stats.from} to ${stats.to}: ${plural(stats.totals.traces, 'trace')}, ${plural(stats.totals.decisionPoints, 'decision')}. Options by times chosen:`];
      for (const o of options) {
        lines.push(
          `- ${o.type} "${o.label}": chosen ${o.chosen} of ${o.offered} times offered; runs failed ${percent(o.errorShareWhenChosen)} when chosen` +
            `${o.reviewed ? `; judged right ${percent(o.judgedRightShare)} of ${o.reviewed} reviews` : ''}`,
        );
      }
      if (options.length === 0) lines.push('(no decisions)');
      return { text: lines.join('\n'), structured: { from: stats.from, to: stats.to, traces: stats.totals.traces, decisionPoints: stats.totals.decisionPoints, options } };
    },
  });

  defineTool(tools, 'decision_paths', {
    title: 'Decision paths',
    description:
      "An agent's runs grouped by the path of their decisions: the most common paths with their outcomes, and the forks (where runs with the same steps before chose differently) ranked by how much the choice changed the error share.",
    input: { name: z.string().describe('The exact trace (agent) name'), ...window },
    output: {
      from: z.string(),
      to: z.string(),
      traces: z.number(),
      paths: z.array(
        z.object({
          id: z.string(),
          steps: z.array(stepShape),
          traces: z.number(),
          share: z.number(),
          outcomes: outcomesShape,
          errorShare: z.number().nullable(),
          avgCostUsd: z.number().nullable(),
          p50DurationMs: z.number().nullable(),
        }),
      ),
      forks: z.array(
        z.object({
          id: z.string(),
          position: z.number().describe('1-based step of the path'),
          prefix: z.array(stepShape),
          type: z.enum(DECISION_TYPES),
          label: z.string(),
          traces: z.number(),
          errorShareWhenChosen: z.number().nullable(),
          forkErrorShare: z.number().nullable(),
        }),
      ),
    },
    readOnly: true,
    async run(args) {
      const result = await pathInsights(ctx, insightsParamsFromValues({ from: args.from, to: args.to, name: args.name }));
      const paths = result.paths.slice(0, TOP).map((p) => ({
        id: p.id,
        steps: p.steps,
        traces: p.traces,
        share: p.share,
        outcomes: p.outcomes,
        errorShare: p.errorTraceShare,
        avgCostUsd: p.avgCostUsd,
        p50DurationMs: p.p50DurationMs,
      }));
      const forks = result.forks.slice(0, TOP).map((f) => ({
        id: f.id,
        position: f.position + 1,
        prefix: f.prefix,
        type: f.type,
        label: f.label,
        traces: f.traces,
        errorShareWhenChosen: f.errorTraceShareWhenChosen,
        forkErrorShare: f.forkErrorTraceShare,
      }));
      const lines = [`"${args.name}", ${result.from} to ${result.to}: ${plural(result.totals.traces, 'trace')}. Top paths:`];
      for (const p of paths) {
        lines.push(`- ${plural(p.traces, 'run')} (${percent(p.share)}), failed ${percent(p.errorShare)}, avg ${formatCost(p.avgCostUsd)}, p50 ${formatDuration(p.p50DurationMs)}: ${pathLine(p.steps)}`);
      }
      lines.push('Forks (at step N, after the steps before it, choosing this option):');
      for (const f of forks) {
        lines.push(
          `- step ${f.position}, after ${pathLine(f.prefix)}: ${f.type} "${f.label}" in ${plural(f.traces, 'run')}, failed ${percent(f.errorShareWhenChosen)} vs ${percent(f.forkErrorShare)} at the fork`,
        );
      }
      if (forks.length === 0) lines.push('(no forks: every run with the same start chose the same)');
      return { text: lines.join('\n'), structured: { from: result.from, to: result.to, traces: result.totals.traces, paths, forks } };
    },
  });

  defineTool(tools, 'compare_traces', {
    title: 'Compare two runs',
    description:
      'Where two runs parted: the steps they share, the first decision where they chose differently, and what followed on each side. Without otherTraceId, compares with the most recent successful run of the same name that shares the most steps.',
    input: { traceId: z.string(), otherTraceId: z.string().optional() },
    output: {
      a: runShape,
      b: runShape.nullable(),
      picked: z.boolean().describe('b was picked as the closest successful run'),
      sharedSteps: z.number(),
      parted: z.object({ position: z.number(), a: stepShape.nullable(), b: stepShape.nullable() }).nullable(),
      followedA: z.array(stepShape),
      followedB: z.array(stepShape),
    },
    readOnly: true,
    async run(args) {
      const r = await partedRuns(ctx, { traceId: args.traceId, ...(args.otherTraceId !== undefined && { otherTraceId: args.otherTraceId }) });
      const run = (x: PartedRun) => `${x.id} (${x.status}, started ${x.startedAt}): ${pathLine(x.path)}`;
      const lines = [`A: ${run(r.a)}`];
      if (!r.b) {
        lines.push(`No other run of "${r.a.name}" completed, so there is no successful run to compare with.`);
      } else {
        lines.push(`B${r.picked ? ' (the closest successful run)' : ''}: ${run(r.b)}`);
        const side = (s: Step | null) => (s ? stepText(s) : '(its path ends)');
        const rest = (steps: Step[]) => (steps.length ? pathLine(steps, (r.parted?.position ?? 0) + 1) : 'nothing more');
        if (!r.parted) lines.push(`Both runs took the same path (${plural(r.sharedSteps, 'step')}).`);
        else {
          lines.push(`They share ${plural(r.sharedSteps, 'step')}, then part at step ${r.parted.position}: A chose ${side(r.parted.a)}, B chose ${side(r.parted.b)}.`);
          lines.push(`After that, A: ${rest(r.followedA)}; B: ${rest(r.followedB)}.`);
        }
      }
      return { text: lines.join('\n'), structured: { ...r } };
    },
  });

  defineTool(tools, 'similar_runs', {
    title: 'Runs that took the same turn',
    description:
      "Runs of the same name that had the same steps before a decision and chose the same there, with their outcomes. `at` is the decision's step on the run's path (1 = first, as get_trace numbers the path); by default the first step where this run's choice has the highest error share among the other runs.",
    input: {
      traceId: z.string(),
      at: z.number().int().min(1).optional(),
      limit: z.number().int().min(1).max(50).default(SIMILAR_RUNS_LIMIT),
    },
    output: {
      trace: z.object({ id: z.string(), name: z.string(), status: z.enum(RUN_STATUSES) }),
      path: z.array(stepShape),
      turn: z
        .object({
          position: z.number(),
          step: stepShape,
          forkId: z.string(),
          outcomes: outcomesShape,
          errorShare: z.number().nullable(),
          forkOutcomes: outcomesShape,
          forkErrorShare: z.number().nullable(),
        })
        .nullable(),
      picked: z.enum(['at', 'highest error share', 'no decisions']),
      runs: z.array(z.object({ id: z.string(), status: z.enum(RUN_STATUSES), startedAt: z.string(), durationMs: z.number().nullable(), costUsd: z.number().nullable() })),
      total: z.number(),
    },
    readOnly: true,
    async run(args) {
      const r = await similarRuns(ctx, { traceId: args.traceId, limit: args.limit, ...(args.at !== undefined && { at: args.at }) });
      const runs = r.runs.map((t) => ({ id: t.id, status: t.status, startedAt: t.startedAt, durationMs: t.totalDuration, costUsd: t.totalCost }));
      const lines = [`${r.trace.id} "${r.trace.name}" (${r.trace.status}) path: ${pathLine(r.path)}`];
      if (!r.turn) lines.push('The run made no decision, so no other run took its turns.');
      else {
        const t = r.turn;
        const o = t.outcomes;
        lines.push(
          `Turn: step ${t.position}, ${stepText(t.step)}${r.picked === 'highest error share' ? ' (the first step where this choice failed most often)' : ''}.`,
          `${plural(r.total, 'other run')} took it: ${o.ERROR} failed, ${o.COMPLETED} completed, ${o.RUNNING} running (error share ${percent(t.errorShare)}; ` +
            `${percent(t.forkErrorShare)} over every choice at this step, ${plural(t.forkOutcomes.COMPLETED + t.forkOutcomes.ERROR + t.forkOutcomes.RUNNING, 'run')}).`,
        );
        for (const x of runs) lines.push(`- ${x.id} ${x.status} started ${x.startedAt}, ${formatDuration(x.durationMs)}, ${formatCost(x.costUsd)}`);
        if (r.total > runs.length) lines.push(`… ${plural(r.total - runs.length, 'more')}`);
      }
      return { text: lines.join('\n'), structured: { trace: r.trace, path: r.path, turn: r.turn, picked: r.picked, runs, total: r.total } };
    },
  });
}
