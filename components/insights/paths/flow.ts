// The fleet's paths as a flow (Sankey) graph: the most common paths merged into a trie of
// steps, chains without a fork folded into one node, and each path's end split into its
// traces' outcomes. Pure and safe for client components; d3-sankey lays it out.
import type { FleetFork, FleetPath } from '@/lib/features/paths';
import { errorShare, noOutcomes, sameOption, sameStep, type Outcomes, type Step } from '@/lib/features/paths/shared';
import type { RunStatus } from '@/lib/features/traces/shared';

/** Paths drawn at most: beyond a dozen the bands get too thin to read or click; the tables list every path. */
export const MAX_FLOW_PATHS = 12;

export interface FlowNode {
  id: string;
  kind: 'start' | 'steps' | 'outcome';
  /** The steps the node stands for (a chain without a fork); empty for the start and outcomes. */
  steps: Step[];
  /** Position of its first step in the paths. */
  position: number;
  status?: RunStatus;
}

/** Where a band drills down to: the traces that took an option at a fork, or one path's traces of one status. */
export type FlowTarget =
  | { kind: 'fork'; forkId: string; type: Step['type']; label: string }
  | { kind: 'path'; pathId: string; status?: RunStatus };

export interface FlowLink {
  source: string;
  target: string;
  /** Traces of the drawn paths along this band. */
  value: number;
  outcomes: Outcomes;
  errorShare: number | null;
  /** Trace-weighted over the drawn paths (each path's own average and median). */
  avgCostUsd: number | null;
  p50DurationMs: number | null;
  paths: number;
  /** The fleet's own figures for the option at its fork (every path, not only those drawn). */
  fork: FleetFork | null;
  to: FlowTarget | null;
}

export interface Flow {
  nodes: FlowNode[];
  links: FlowLink[];
  drawnPaths: number;
  drawnTraces: number;
}

interface Trie {
  step: Step | null;
  position: number;
  children: Trie[];
  /** The path that ends here (equal steps are one path). */
  ends: FleetPath | null;
  through: FleetPath[];
}

const STATUSES: RunStatus[] = ['COMPLETED', 'ERROR', 'RUNNING'];

function weighted(paths: readonly FleetPath[], pick: (p: FleetPath) => number | null): number | null {
  let sum = 0;
  let weight = 0;
  for (const p of paths) {
    const v = pick(p);
    if (v === null) continue;
    sum += v * p.traces;
    weight += p.traces;
  }
  return weight === 0 ? null : sum / weight;
}

function figures(paths: readonly FleetPath[]) {
  const outcomes = noOutcomes();
  for (const p of paths) {
    outcomes.COMPLETED += p.outcomes.COMPLETED;
    outcomes.ERROR += p.outcomes.ERROR;
    outcomes.RUNNING += p.outcomes.RUNNING;
  }
  return {
    value: paths.reduce((n, p) => n + p.traces, 0),
    outcomes,
    errorShare: errorShare(outcomes),
    avgCostUsd: weighted(paths, (p) => p.avgCostUsd),
    p50DurationMs: weighted(paths, (p) => p.p50DurationMs),
    paths: paths.length,
  };
}

function buildTrie(paths: readonly FleetPath[]): Trie {
  const root: Trie = { step: null, position: -1, children: [], ends: null, through: [...paths] };
  for (const path of paths) {
    let node = root;
    path.steps.forEach((step, position) => {
      let child = node.children.find((c) => sameStep(c.step!, step));
      if (!child) node.children.push((child = { step, position, children: [], ends: null, through: [] }));
      child.through.push(path);
      node = child;
    });
    node.ends = path;
  }
  return root;
}

/** The fork entry for taking `step` after `prefix`, when the fleet forks there. */
function forkFor(forks: readonly FleetFork[], prefix: readonly Step[], step: Step): FleetFork | null {
  return (
    forks.find(
      (f) => f.position === prefix.length && sameOption(f, step) && f.prefix.every((s, i) => sameStep(s, prefix[i])),
    ) ?? null
  );
}

/** The flow of the `max` most common paths (paths come ordered by traces, most first). */
export function buildFlow(data: { paths: readonly FleetPath[]; forks: readonly FleetFork[] }, max = MAX_FLOW_PATHS): Flow {
  const drawn = data.paths.slice(0, max).filter((p) => p.traces > 0);
  const nodes: FlowNode[] = [];
  const links: FlowLink[] = [];
  const outcomeIds = new Set<RunStatus>();

  // A node from `start`, following children while there is exactly one and no path ends.
  const walk = (start: Trie, prefix: Step[]): string => {
    const steps: Step[] = [];
    let node = start;
    if (node.step) steps.push(node.step);
    while (node.children.length === 1 && node.ends === null) {
      node = node.children[0];
      steps.push(node.step!);
    }
    const id = `n${nodes.length}`;
    nodes.push({ id, kind: start.step ? 'steps' : 'start', steps, position: start.step ? start.position : 0 });
    const upTo = [...prefix, ...steps];
    for (const child of node.children) {
      const childId = walk(child, upTo);
      const fork = forkFor(data.forks, upTo, child.step!);
      const to: FlowTarget | null = fork
        ? { kind: 'fork', forkId: fork.id, type: fork.type, label: fork.label }
        : child.through.length === 1
          ? { kind: 'path', pathId: child.through[0].id }
          : null;
      links.push({ source: id, target: childId, ...figures(child.through), fork, to });
    }
    if (node.ends) {
      const path = node.ends;
      for (const status of STATUSES) {
        const count = path.outcomes[status];
        if (count === 0) continue;
        outcomeIds.add(status);
        const outcomes = { ...noOutcomes(), [status]: count };
        links.push({
          source: id,
          target: `outcome-${status}`,
          value: count,
          outcomes,
          errorShare: errorShare(outcomes),
          avgCostUsd: path.avgCostUsd,
          p50DurationMs: path.p50DurationMs,
          paths: 1,
          fork: null,
          to: { kind: 'path', pathId: path.id, status },
        });
      }
    }
    return id;
  };

  if (drawn.length > 0) walk(buildTrie(drawn), []);
  for (const status of STATUSES) {
    if (outcomeIds.has(status)) nodes.push({ id: `outcome-${status}`, kind: 'outcome', steps: [], position: 0, status });
  }
  return { nodes, links, drawnPaths: drawn.length, drawnTraces: drawn.reduce((n, p) => n + p.traces, 0) };
}

/** A step as it reads in a node or a table: `search_docs ×3`. */
export const stepText = (s: Step): string => (s.repeats > 1 ? `${s.label} ×${s.repeats}` : s.label);

/**
 * Hue of an error share, from green (none failed) to red (all failed); null (nothing ended)
 * has none and is drawn grey.
 */
export function errorHue(share: number | null): number | null {
  return share === null ? null : Math.round(140 * (1 - Math.min(1, Math.max(0, share))));
}
