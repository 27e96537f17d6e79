import { describe, expect, it } from 'vitest';
import type { FleetFork, FleetPath } from '@/lib/features/paths/fleet';
import { forksOf, type Step } from '@/lib/features/paths/steps';
import { buildFlow, errorHue } from './flow';

const step = (label: string, repeats = 1, type: Step['type'] = 'TOOL_SELECTION'): Step => ({ type, label, repeats });

function path(id: string, steps: Step[], COMPLETED: number, ERROR: number, RUNNING = 0, avgCostUsd: number | null = 1): FleetPath {
  const traces = COMPLETED + ERROR + RUNNING;
  return {
    id,
    steps,
    traces,
    share: 0,
    outcomes: { COMPLETED, ERROR, RUNNING },
    errorTraceShare: COMPLETED + ERROR ? ERROR / (COMPLETED + ERROR) : null,
    avgCostUsd,
    p50DurationMs: 100,
    p95DurationMs: 200,
    judgedRightShare: null,
  };
}

const forksFor = (paths: FleetPath[]): FleetFork[] =>
  forksOf(paths).map((f, i) => ({ ...f, id: `fork${f.position}-${f.prefix.map((s) => s.label).join('.')}`, key: undefined, i }) as unknown as FleetFork);

describe('buildFlow', () => {
  const route = step('router', 1, 'ROUTING');
  const paths = [
    path('p1', [route, step('search'), step('answer')], 6, 1),
    path('p2', [route, step('search'), step('ask')], 1, 3),
    path('p3', [route, step('calc', 3)], 2, 0, 1, null),
  ];
  const flow = buildFlow({ paths, forks: forksFor(paths) });

  it('folds the shared prefix into the start node and chains without a fork into one node', () => {
    const start = flow.nodes.find((n) => n.kind === 'start')!;
    expect(start.steps).toEqual([route]);
    const search = flow.nodes.find((n) => n.steps[0]?.label === 'search')!;
    expect(search.steps).toHaveLength(1);
    expect(flow.nodes.filter((n) => n.kind === 'outcome').map((n) => n.status)).toEqual(['COMPLETED', 'ERROR', 'RUNNING']);
  });

  it('weighs bands by traces, with their outcomes and error share', () => {
    const toSearch = flow.links.find((l) => flow.nodes.find((n) => n.id === l.target)!.steps[0]?.label === 'search')!;
    expect(toSearch.value).toBe(11);
    expect(toSearch.outcomes).toEqual({ COMPLETED: 7, ERROR: 4, RUNNING: 0 });
    expect(toSearch.errorShare).toBeCloseTo(4 / 11);
    expect(toSearch.avgCostUsd).toBe(1);
    expect(toSearch.to).toMatchObject({ kind: 'fork', forkId: 'fork1-router', label: 'search' });
    const toCalc = flow.links.find((l) => flow.nodes.find((n) => n.id === l.target)!.steps[0]?.label === 'calc')!;
    expect(toCalc.avgCostUsd).toBeNull();
    expect(toCalc.errorShare).toBe(0);
  });

  it('splits each path end into its outcomes, drilling down to the path and status', () => {
    const ends = flow.links.filter((l) => l.to?.kind === 'path');
    expect(ends.map((l) => [l.to, l.value])).toEqual(
      expect.arrayContaining([
        [{ kind: 'path', pathId: 'p2', status: 'ERROR' }, 3],
        [{ kind: 'path', pathId: 'p3', status: 'RUNNING' }, 1],
      ]),
    );
    const total = flow.links.filter((l) => l.target.startsWith('outcome-')).reduce((n, l) => n + l.value, 0);
    expect(total).toBe(14);
  });

  it('draws only the most common paths, and the empty path from the start node', () => {
    const withEmpty = [path('e', [], 5, 5), ...paths];
    const small = buildFlow({ paths: withEmpty, forks: forksFor(withEmpty) }, 2);
    expect(small.drawnPaths).toBe(2);
    expect(small.drawnTraces).toBe(17);
    const start = small.nodes.find((n) => n.kind === 'start')!;
    expect(small.links.filter((l) => l.source === start.id && l.target.startsWith('outcome-')).map((l) => l.value)).toEqual([5, 5]);
  });

  it('is empty without paths', () => {
    expect(buildFlow({ paths: [], forks: [] })).toEqual({ nodes: [], links: [], drawnPaths: 0, drawnTraces: 0 });
  });
});

describe('errorHue', () => {
  it('goes from green to red, none without ended traces', () => {
    expect(errorHue(0)).toBe(140);
    expect(errorHue(1)).toBe(0);
    expect(errorHue(null)).toBeNull();
  });
});
