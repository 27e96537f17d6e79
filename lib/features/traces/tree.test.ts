import { describe, expect, it } from 'vitest';
import type { DecisionPointRecord, SpanRecord } from './types';
import {
  ancestorKeys,
  buildTraceTree,
  collapsibleKeys,
  filteredKeys,
  decisionKey,
  flattenTree,
  spanKey,
  type TreeNode,
} from './tree';

const T0 = Date.parse('2026-11-21T10:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

function span(id: string, parentSpanId: string | null = null, startMs = 0, extra: Partial<SpanRecord> = {}): SpanRecord {
  return {
    id,
    traceId: 't',
    parentSpanId,
    name: `span ${id}`,
    type: 'CUSTOM',
    input: null,
    output: null,
    tokenCount: null,
    costUsd: null,
    costSource: null,
    pricedModel: null,
    durationMs: 10,
    status: 'COMPLETED',
    statusMessage: null,
    startedAt: at(startMs),
    endedAt: null,
    metadata: null,
    ...extra,
  };
}

function decision(id: string, parentSpanId: string | null, timeMs: number): DecisionPointRecord {
  return {
    id,
    traceId: 't',
    type: 'TOOL_SELECTION',
    inferred: false,
    reasoning: null,
    chosen: 'a',
    alternatives: ['b'],
    contextSnapshot: null,
    durationMs: null,
    costUsd: null,
    parentSpanId,
    timestamp: at(timeMs),
  };
}

const ids = (nodes: readonly TreeNode[]) => nodes.map((n) => n.key);

describe('buildTraceTree', () => {
  it('nests spans by parentSpanId, keeping time order', () => {
    const tree = buildTraceTree([span('root'), span('a', 'root', 1), span('b', 'root', 2), span('a1', 'a', 3)]);
    expect(ids(tree.roots)).toEqual(['s:root']);
    const root = tree.roots[0];
    expect(ids(root.children)).toEqual(['s:a', 's:b']);
    expect(ids(root.children[0].children)).toEqual(['s:a1']);
    expect(root.children[0].children[0].depth).toBe(2);
    expect(tree.maxDepth).toBe(2);
    expect(tree.nodeCount).toBe(4);
    expect(root.descendantCount).toBe(3);
  });

  it('puts spans whose parent is missing at the root, flagged as orphans', () => {
    const tree = buildTraceTree([span('a'), span('lost', 'nowhere', 1), span('child', 'lost', 2)]);
    expect(ids(tree.roots)).toEqual(['s:a', 's:lost']);
    expect(tree.roots[1].orphan).toBe(true);
    expect(tree.roots[0].orphan).toBe(false);
    expect(ids(tree.roots[1].children)).toEqual(['s:child']);
    expect(tree.orphanCount).toBe(1);
  });

  it('treats an empty parentSpanId as no parent', () => {
    const tree = buildTraceTree([span('a', '')]);
    expect(ids(tree.roots)).toEqual(['s:a']);
    expect(tree.roots[0].orphan).toBe(false);
  });

  it('places decisions under their span, in time order among the child spans', () => {
    const tree = buildTraceTree(
      [span('root', null, 0), span('a', 'root', 10), span('b', 'root', 30)],
      [decision('d1', 'root', 20), decision('d0', null, 5), decision('dx', 'missing', 40)],
    );
    expect(ids(tree.roots)).toEqual(['s:root', 'd:d0', 'd:dx']);
    expect(ids(tree.roots[0].children)).toEqual(['s:a', 'd:d1', 's:b']);
    expect(tree.roots[2].orphan).toBe(true);
    expect(tree.roots[0].descendantCount).toBe(3);
  });

  it('keeps span and decision ids apart even when equal', () => {
    const tree = buildTraceTree([span('x')], [decision('x', 'x', 1)]);
    expect(tree.byKey.get(spanKey('x'))?.kind).toBe('span');
    expect(tree.byKey.get(decisionKey('x'))?.kind).toBe('decision');
    expect(ids(tree.roots[0].children)).toEqual(['d:x']);
  });

  it('keeps a duplicated span id visible', () => {
    const tree = buildTraceTree([span('a'), span('a', null, 1)]);
    expect(ids(tree.roots)).toEqual(['s:a', 's:a#2']);
  });

  it('marks errors below a span for collapsed views', () => {
    const tree = buildTraceTree([
      span('root'),
      span('mid', 'root', 1),
      span('bad', 'mid', 2, { status: 'ERROR' }),
      span('ok', null, 3),
    ]);
    expect(tree.roots[0].errorBelow).toBe(true);
    expect(tree.roots[0].children[0].errorBelow).toBe(true);
    expect(tree.roots[1].errorBelow).toBe(false);
  });

  describe('cycles do not hang', () => {
    it('cuts a span that is its own parent', () => {
      const tree = buildTraceTree([span('a', 'a')]);
      expect(ids(tree.roots)).toEqual(['s:a']);
      expect(tree.roots[0].cycle).toBe(true);
      expect(tree.roots[0].children).toEqual([]);
      expect(tree.cycleCount).toBe(1);
    });

    it('cuts a two-span cycle once and keeps both spans', () => {
      const tree = buildTraceTree([span('a', 'b'), span('b', 'a', 1), span('c', null, 2)]);
      expect(tree.cycleCount).toBe(1);
      const rows = flattenTree(tree.roots, new Set());
      expect(rows.map((r) => r.node.key).sort()).toEqual(['s:a', 's:b', 's:c']);
      const cut = tree.roots.find((r) => r.cycle)!;
      expect(cut.children).toHaveLength(1);
      expect(cut.children[0].children).toEqual([]);
    });

    it('cuts the cycle itself, not the tree hanging off it', () => {
      // b ↔ c form the cycle; d hangs below c and comes first in the input.
      const tree = buildTraceTree([span('d', 'c'), span('b', 'c', 1), span('c', 'b', 2)]);
      const cut = tree.roots.filter((r) => r.cycle);
      expect(cut).toHaveLength(1);
      expect(['s:b', 's:c']).toContain(cut[0].key);
      expect(tree.roots).toHaveLength(1);
      expect(flattenTree(tree.roots, new Set())).toHaveLength(3);
    });

    it('handles a 10,000-span ring', () => {
      const n = 10_000;
      const spans = Array.from({ length: n }, (_, i) => span(`r${i}`, `r${(i + 1) % n}`, i));
      const tree = buildTraceTree(spans);
      expect(tree.cycleCount).toBe(1);
      expect(tree.roots).toHaveLength(1);
      expect(tree.maxDepth).toBe(n - 1);
      expect(flattenTree(tree.roots, new Set())).toHaveLength(n);
      for (const key of ancestorKeys(tree, 's:r0')) expect(key).toMatch(/^s:r\d+$/);
    });
  });

  it('builds, flattens and walks a chain 10,000 deep without recursion', () => {
    const n = 10_000;
    const spans = Array.from({ length: n }, (_, i) => span(`c${i}`, i === 0 ? null : `c${i - 1}`, i));
    const tree = buildTraceTree(spans);
    expect(tree.maxDepth).toBe(n - 1);
    expect(tree.roots[0].descendantCount).toBe(n - 1);
    const rows = flattenTree(tree.roots, new Set());
    expect(rows).toHaveLength(n);
    expect(rows[n - 1].depth).toBe(n - 1);
    expect(rows[n - 1].parentIndex).toBe(n - 2);
    expect(ancestorKeys(tree, `s:c${n - 1}`)).toHaveLength(n - 1);
  });

  it('even 100,000 deep (far past any call stack)', () => {
    const n = 100_000;
    const spans = Array.from({ length: n }, (_, i) => span(`c${i}`, i === 0 ? null : `c${i - 1}`, i));
    const tree = buildTraceTree(spans);
    expect(tree.maxDepth).toBe(n - 1);
    expect(flattenTree(tree.roots, new Set())).toHaveLength(n);
  });
});

describe('flattenTree', () => {
  const tree = buildTraceTree(
    [span('root'), span('a', 'root', 1), span('a1', 'a', 2), span('b', 'root', 3), span('solo', null, 4)],
    [decision('d', 'a', 5)],
  );

  it('lists every node depth-first when nothing is collapsed', () => {
    const rows = flattenTree(tree.roots, new Set());
    expect(rows.map((r) => `${r.node.key}@${r.depth}`)).toEqual([
      's:root@0',
      's:a@1',
      's:a1@2',
      'd:d@2',
      's:b@1',
      's:solo@0',
    ]);
    expect(rows.map((r) => r.parentIndex)).toEqual([-1, 0, 1, 1, 0, -1]);
    expect(rows.map((r) => `${r.posInSet}/${r.setSize}`)).toEqual(['1/2', '1/2', '1/2', '2/2', '2/2', '2/2']);
    expect(rows[0].expanded).toBe(true);
    expect(rows[2].hasChildren).toBe(false);
  });

  it('hides what is below a collapsed node', () => {
    const rows = flattenTree(tree.roots, new Set(['s:a']));
    expect(rows.map((r) => r.node.key)).toEqual(['s:root', 's:a', 's:b', 's:solo']);
    expect(rows[1].expanded).toBe(false);
    expect(rows[1].hasChildren).toBe(true);
  });

  it('collapses everything at once', () => {
    const keys = collapsibleKeys(tree);
    expect([...keys].sort()).toEqual(['s:a', 's:root']);
    expect(flattenTree(tree.roots, keys).map((r) => r.node.key)).toEqual(['s:root', 's:solo']);
  });

  it('finds the ancestors to expand to reveal a node', () => {
    expect(ancestorKeys(tree, 'd:d')).toEqual(['s:a', 's:root']);
    expect(ancestorKeys(tree, 's:solo')).toEqual([]);
  });

  it('handles an empty trace', () => {
    const empty = buildTraceTree([], []);
    expect(empty.roots).toEqual([]);
    expect(flattenTree(empty.roots, new Set())).toEqual([]);
    expect(empty.maxDepth).toBe(0);
  });
});

describe('filteredKeys', () => {
  // root ─ a (ERROR) ─ a1
  //      └ b ─ b1 (ERROR)
  //      └ decision d
  const tree = buildTraceTree(
    [
      span('root'),
      span('a', 'root', 1, { status: 'ERROR' }),
      span('a1', 'a', 2),
      span('b', 'root', 3),
      span('b1', 'b', 4, { status: 'ERROR', type: 'TOOL_CALL' }),
    ],
    [decision('d', 'root', 5)],
  );

  it('keeps the spans that match and their ancestors, in tree order, and no decisions', () => {
    const keep = filteredKeys(tree, (n) => n.span.status === 'ERROR');
    expect(flattenTree(tree.roots, new Set(), keep).map((r) => r.node.key)).toEqual(['s:root', 's:a', 's:b', 's:b1']);
  });

  it('recomputes children, positions and parents among the shown rows', () => {
    const keep = filteredKeys(tree, (n) => n.span.type === 'TOOL_CALL');
    const rows = flattenTree(tree.roots, new Set(), keep);
    expect(rows.map((r) => [r.node.key, r.depth, r.parentIndex, r.posInSet, r.setSize, r.hasChildren])).toEqual([
      ['s:root', 0, -1, 1, 1, true],
      ['s:b', 1, 0, 1, 1, true],
      ['s:b1', 2, 1, 1, 1, false],
    ]);
    expect(filteredKeys(tree, () => false).size).toBe(0);
  });
});
