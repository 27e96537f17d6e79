// Builds the span tree of one trace (spans nested by parentSpanId, decision points
// placed under the span they happened in) and flattens it into visible rows for a
// virtualised view. Pure, O(n), and iterative throughout: traces can be 10,000 spans
// deep, far beyond any call stack, and client data can hold cycles.
import type { DecisionPointRecord, SpanSummary } from './types';

export interface SpanNode {
  kind: 'span';
  /** Unique among all nodes: span and decision ids may coincide. */
  key: string;
  span: SpanSummary;
  children: TreeNode[];
  depth: number;
  /** The span names a parent that is not in the trace; it sits at the root. */
  orphan: boolean;
  /** The span was part of a parent cycle (or its own parent); the cycle is cut here. */
  cycle: boolean;
  /** Nodes below this one, at any depth. */
  descendantCount: number;
  /** Some span below this one has status ERROR (shown on collapsed nodes). */
  errorBelow: boolean;
}

export interface DecisionNode {
  kind: 'decision';
  key: string;
  decision: DecisionPointRecord;
  children: TreeNode[];
  depth: number;
  /** parentSpanId names a span that is not in the trace; it sits at the root. */
  orphan: boolean;
  cycle: false;
  descendantCount: 0;
  errorBelow: false;
}

export type TreeNode = SpanNode | DecisionNode;

export interface TraceTree {
  roots: TreeNode[];
  /** Every node by key, in input order (spans first, then decisions). */
  byKey: Map<string, TreeNode>;
  /** Parent of every non-root node. */
  parentOf: Map<string, TreeNode>;
  /** Span nodes by span id (the first span of a duplicated id wins). */
  spanById: Map<string, SpanNode>;
  nodeCount: number;
  maxDepth: number;
  orphanCount: number;
  cycleCount: number;
}

export const spanKey = (id: string): string => `s:${id}`;
export const decisionKey = (id: string): string => `d:${id}`;

function nodeTime(node: TreeNode): number {
  const iso = node.kind === 'span' ? node.span.startedAt : node.decision.timestamp;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
}

/**
 * Nests spans by parentSpanId and decisions under their parentSpanId span. Children
 * keep time order when the inputs are each in time order (as the API returns them):
 * the two lists are merged once, in O(n), rather than sorting every child list.
 */
export function buildTraceTree(spans: readonly SpanSummary[], decisions: readonly DecisionPointRecord[] = []): TraceTree {
  const byKey = new Map<string, TreeNode>();
  const spanById = new Map<string, SpanNode>();
  const spanNodes: SpanNode[] = new Array(spans.length);

  for (let i = 0; i < spans.length; i++) {
    const span = spans[i];
    let key = spanKey(span.id);
    // Ids are unique per trace in storage; keep a duplicate visible rather than lose it.
    for (let n = 2; byKey.has(key); n++) key = `${spanKey(span.id)}#${n}`;
    const node: SpanNode = {
      kind: 'span',
      key,
      span,
      children: [],
      depth: 0,
      orphan: false,
      cycle: false,
      descendantCount: 0,
      errorBelow: false,
    };
    spanNodes[i] = node;
    byKey.set(key, node);
    if (!spanById.has(span.id)) spanById.set(span.id, node);
  }

  const decisionNodes: DecisionNode[] = new Array(decisions.length);
  for (let i = 0; i < decisions.length; i++) {
    const decision = decisions[i];
    let key = decisionKey(decision.id);
    for (let n = 2; byKey.has(key); n++) key = `${decisionKey(decision.id)}#${n}`;
    const node: DecisionNode = {
      kind: 'decision',
      key,
      decision,
      children: [],
      depth: 0,
      orphan: false,
      cycle: false,
      descendantCount: 0,
      errorBelow: false,
    };
    decisionNodes[i] = node;
    byKey.set(key, node);
  }

  // Parent of every attached node; roots have none.
  const parentOf = new Map<string, TreeNode>();
  const roots: TreeNode[] = [];
  let orphanCount = 0;
  let cycleCount = 0;

  const attach = (node: TreeNode, parentId: string | null) => {
    if (parentId === null || parentId === undefined || parentId === '') {
      roots.push(node);
      return;
    }
    const parent = spanById.get(parentId);
    if (!parent) {
      node.orphan = true;
      orphanCount++;
      roots.push(node);
      return;
    }
    if (parent === node) {
      // Its own parent: a cycle of one.
      (node as SpanNode).cycle = true;
      cycleCount++;
      roots.push(node);
      return;
    }
    parent.children.push(node);
    parentOf.set(node.key, parent);
  };

  // Merge spans and decisions by time so that children come out in time order.
  const spanTimes = spanNodes.map(nodeTime);
  const decisionTimes = decisionNodes.map(nodeTime);
  let si = 0;
  let di = 0;
  while (si < spanNodes.length || di < decisionNodes.length) {
    const takeSpan = di >= decisionNodes.length || (si < spanNodes.length && spanTimes[si] <= decisionTimes[di]);
    if (takeSpan) {
      const node = spanNodes[si++];
      attach(node, node.span.parentSpanId);
    } else {
      const node = decisionNodes[di++];
      attach(node, node.decision.parentSpanId);
    }
  }

  // Depth-first walk from the roots, iteratively, recording depth and visit order.
  const visited = new Set<string>();
  const order: TreeNode[] = [];
  let maxDepth = 0;
  const walk = (start: TreeNode, depth: number) => {
    const stack: TreeNode[] = [start];
    start.depth = depth;
    visited.add(start.key);
    while (stack.length > 0) {
      const node = stack.pop()!;
      order.push(node);
      if (node.depth > maxDepth) maxDepth = node.depth;
      for (let c = node.children.length - 1; c >= 0; c--) {
        const child = node.children[c];
        if (visited.has(child.key)) continue;
        visited.add(child.key);
        child.depth = node.depth + 1;
        stack.push(child);
      }
    }
  };
  for (const root of roots) walk(root, 0);

  // Whatever the walk missed hangs off a parent cycle (A → B → A). Climb from it to
  // the first node met twice, which lies on the cycle, cut the cycle there and make
  // that node a root. Every climb ends in a walk that visits all it climbed through,
  // so each node is climbed at most once: still O(n).
  const climbedIn = new Map<string, number>();
  for (let i = 0; i < spanNodes.length; i++) {
    const start = spanNodes[i];
    if (visited.has(start.key)) continue;
    let node: SpanNode = start;
    while (climbedIn.get(node.key) !== i) {
      climbedIn.set(node.key, i);
      const parent = parentOf.get(node.key) as SpanNode | undefined;
      if (!parent) break; // cannot happen for an unvisited node; kept as a guard
      node = parent;
    }
    const cut = node;
    const parent = parentOf.get(cut.key);
    if (parent) {
      parent.children = parent.children.filter((c) => c !== cut);
      parentOf.delete(cut.key);
    }
    cut.cycle = true;
    cycleCount++;
    roots.push(cut);
    walk(cut, 0);
  }

  // Post-order sums: walking the pre-order list backwards sees children before parents.
  for (let i = order.length - 1; i >= 0; i--) {
    const node = order[i];
    const parent = parentOf.get(node.key);
    if (!parent || parent.kind !== 'span') continue;
    parent.descendantCount += node.descendantCount + 1;
    if (node.kind === 'span' && (node.errorBelow || node.span.status === 'ERROR')) parent.errorBelow = true;
  }

  return {
    roots,
    byKey,
    parentOf,
    spanById,
    nodeCount: byKey.size,
    maxDepth,
    orphanCount,
    cycleCount,
  };
}

export interface TreeRow {
  node: TreeNode;
  depth: number;
  hasChildren: boolean;
  expanded: boolean;
  /** Index of the parent row in the rows array, -1 for roots. */
  parentIndex: number;
  /** 1-based position among its siblings, and the number of siblings (aria-posinset/setsize). */
  posInSet: number;
  setSize: number;
}

/**
 * The rows a tree view shows: every node whose ancestors are all expanded, in
 * depth-first order. `collapsed` holds the keys of collapsed nodes (all expanded by
 * default); with `include`, only the nodes it holds are shown (a filter: see
 * filteredKeys). O(visible rows), iterative.
 */
export function flattenTree(allRoots: readonly TreeNode[], collapsed: ReadonlySet<string>, include?: ReadonlySet<string>): TreeRow[] {
  const shown = (nodes: readonly TreeNode[]) => (include ? nodes.filter((n) => include.has(n.key)) : nodes);
  const roots = shown(allRoots);
  const rows: TreeRow[] = [];
  // Stack entries: node, its parent row index, position among siblings and sibling count.
  const stackNodes: TreeNode[] = [];
  const stackParent: number[] = [];
  const stackPos: number[] = [];
  const stackSize: number[] = [];
  const stackDepth: number[] = [];
  for (let i = roots.length - 1; i >= 0; i--) {
    stackNodes.push(roots[i]);
    stackParent.push(-1);
    stackPos.push(i + 1);
    stackSize.push(roots.length);
    stackDepth.push(0);
  }
  while (stackNodes.length > 0) {
    const node = stackNodes.pop()!;
    const parentIndex = stackParent.pop()!;
    const posInSet = stackPos.pop()!;
    const setSize = stackSize.pop()!;
    const depth = stackDepth.pop()!;
    const kids = shown(node.children);
    const hasChildren = kids.length > 0;
    const expanded = hasChildren && !collapsed.has(node.key);
    const index = rows.length;
    rows.push({ node, depth, hasChildren, expanded, parentIndex, posInSet, setSize });
    if (expanded) {
      for (let c = kids.length - 1; c >= 0; c--) {
        stackNodes.push(kids[c]);
        stackParent.push(index);
        stackPos.push(c + 1);
        stackSize.push(kids.length);
        stackDepth.push(depth + 1);
      }
    }
  }
  return rows;
}

/**
 * A filter's nodes: the spans `keep` accepts and their ancestors (so each stays in its
 * place in the tree), for flattenTree's `include`. Decision points are left out. O(n).
 */
export function filteredKeys(tree: TraceTree, keep: (node: SpanNode) => boolean): Set<string> {
  const keys = new Set<string>();
  for (const node of tree.byKey.values()) {
    if (node.kind !== 'span' || !keep(node)) continue;
    // Stop at the first ancestor already in: its own ancestors are in too.
    for (let n: TreeNode | undefined = node; n && !keys.has(n.key); n = tree.parentOf.get(n.key)) keys.add(n.key);
  }
  return keys;
}

/** Keys of every node that has children: what "collapse all" collapses. */
export function collapsibleKeys(tree: TraceTree): Set<string> {
  const keys = new Set<string>();
  for (const node of tree.byKey.values()) if (node.children.length > 0) keys.add(node.key);
  return keys;
}

/** Keys of the ancestors of `key`, nearest first: what must expand to reveal it. */
export function ancestorKeys(tree: TraceTree, key: string): string[] {
  const out: string[] = [];
  let parent = tree.parentOf.get(key);
  // parentOf is acyclic once the tree is built; the size bound is a second guard.
  while (parent && out.length <= tree.nodeCount) {
    out.push(parent.key);
    parent = tree.parentOf.get(parent.key);
  }
  return out;
}
