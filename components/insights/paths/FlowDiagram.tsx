'use client';

import { sankey, sankeyJustify, sankeyLinkHorizontal, type SankeyLink, type SankeyNode } from 'd3-sankey';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { PathInsights } from '@/lib/features/paths';
import { formatCost, formatDuration, plural } from '@/lib/core/format';
import { DECISION_LABEL, statusLabel } from '@/components/ui/badges';
import { formatShare } from '../theme';
import { buildFlow, errorHue, stepText, type FlowLink, type FlowNode } from './flow';
import { targetHref, type Window } from './targets';

type Node = SankeyNode<FlowNode, FlowLink>;
type Link = SankeyLink<FlowNode, FlowLink>;

const HEIGHT = 420;
/** Narrower than this the bands and labels crowd: the figure scrolls inside its frame instead. */
const MIN_WIDTH = 720;
const NODE_WIDTH = 12;
const MARGIN = { top: 8, bottom: 8, left: 8 };
/** Room right of the outcomes for their labels: a generous width per character of 12 px text, so none is cut. */
const LABEL_CHAR_PX = 7.5;
const LABEL_GAP = 6;

// Band colours are an HSL hue from the error share; the lightness follows the colour scheme.
const BAND_VARS = '[--flow-l:42%] [--flow-a:0.55] dark:[--flow-l:62%] dark:[--flow-a:0.6]';

const bandColor = (share: number | null) => {
  const hue = errorHue(share);
  return hue === null ? 'var(--c-border-strong)' : `hsl(${hue} 70% var(--flow-l) / var(--flow-a))`;
};

function nodeTitle(n: FlowNode): string {
  if (n.kind === 'outcome') return statusLabel(n.status!);
  if (n.kind === 'start') return n.steps.length ? stepText(n.steps[0]) : 'Start';
  return stepText(n.steps[0]);
}

/** An outcome's label: its status and how many traces ended so, e.g. "Completed (55)". */
function outcomeLabel(n: FlowNode, traces: number): string {
  return `${statusLabel(n.status!)} (${traces})`;
}

function nodeSubtitle(n: FlowNode): string | null {
  if (n.kind === 'outcome') return null;
  return n.steps.length > 1 ? `then ${plural(n.steps.length - 1, 'more step')}` : null;
}

function describe(link: FlowLink, target: FlowNode): string[] {
  const lines = [
    target.kind === 'outcome'
      ? `${plural(link.value, 'trace')} ended ${statusLabel(target.status!).toLowerCase()}`
      : `${plural(link.value, 'trace')} chose ${DECISION_LABEL[target.steps[0].type].toLowerCase()} ${stepText(target.steps[0])}`,
    `Completed ${link.outcomes.COMPLETED} · Error ${link.outcomes.ERROR} · Running ${link.outcomes.RUNNING}`,
    `Error share ${formatShare(link.errorShare)}`,
    `Avg cost ${formatCost(link.avgCostUsd)} · median duration ${formatDuration(link.p50DurationMs)}${link.paths > 1 ? ` (over ${link.paths} paths)` : ''}`,
  ];
  if (link.fork) {
    lines.push(
      `At this fork, all paths: ${plural(link.fork.traces, 'trace')} chose it, error share ${formatShare(link.fork.errorTraceShareWhenChosen)} (fork ${formatShare(link.fork.forkErrorTraceShare)})`,
    );
  }
  return lines;
}

/** Measures the element's width (a first guess until mounted). */
function useWidth(initial: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.round(entry.contentRect.width)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/**
 * The most common paths as a Sankey flow from the first step to the outcomes: band width
 * is traces, colour the share of ended traces that failed; each band is a link to its
 * traces. The tables below are the text alternative.
 */
export function FlowDiagram({ data, req }: { data: PathInsights; req: Window }) {
  const flow = useMemo(() => buildFlow(data), [data]);
  const [frameRef, frameWidth] = useWidth(1100);
  const width = Math.max(MIN_WIDTH, frameWidth);
  const [active, setActive] = useState<{ index: number; x: number; y: number } | null>(null);

  // The outcomes' labels sit right of their nodes: the margin fits the longest.
  const rightMargin = useMemo(() => {
    const outcomeTraces = new Map<string, number>();
    for (const link of flow.links) {
      const target = flow.nodes.find((n) => n.id === link.target);
      if (target?.kind === 'outcome') outcomeTraces.set(target.id, (outcomeTraces.get(target.id) ?? 0) + link.value);
    }
    const longest = Math.max(0, ...flow.nodes.filter((n) => n.kind === 'outcome').map((n) => outcomeLabel(n, outcomeTraces.get(n.id) ?? 0).length));
    return Math.ceil(longest * LABEL_CHAR_PX) + LABEL_GAP + 8;
  }, [flow]);

  const layout = useMemo(() => {
    if (flow.links.length === 0) return null;
    const graph = sankey<FlowNode, FlowLink>()
      .nodeId((n) => n.id)
      .nodeAlign(sankeyJustify)
      .nodeWidth(NODE_WIDTH)
      .nodePadding(14)
      .extent([
        [MARGIN.left, MARGIN.top],
        [width - rightMargin, HEIGHT - MARGIN.bottom],
      ]);
    return graph({ nodes: flow.nodes.map((n) => ({ ...n })), links: flow.links.map((l) => ({ ...l })) });
  }, [flow, width, rightMargin]);

  if (!layout) {
    return (
      <section aria-labelledby="flow-heading">
        <h2 id="flow-heading" className="text-base font-semibold">
          Flow from the first fork to the outcomes
        </h2>
        <p className="mt-1 text-sm text-muted">No trace in this window recorded a decision.</p>
      </section>
    );
  }
  const path = sankeyLinkHorizontal<FlowNode, FlowLink>();
  const hidden = data.paths.length - flow.drawnPaths;
  const shown = active ? (layout.links[active.index] as Link) : null;

  return (
    <section aria-labelledby="flow-heading" className={`flex flex-col gap-2 ${BAND_VARS}`}>
      <div>
        <h2 id="flow-heading" className="text-base font-semibold">
          Flow from the first fork to the outcomes
        </h2>
        <p className="text-sm text-muted">
          Band width: traces; colour: share of ended traces that failed (green none, red all, grey none ended). Hover or focus a band
          for its figures; click it for its traces.
          {hidden > 0 && ` Showing the ${flow.drawnPaths} most common paths (${plural(flow.drawnTraces, 'trace')}); the tables list all ${data.paths.length}.`}
        </p>
      </div>
      <div ref={frameRef} className="relative overflow-x-auto rounded-lg border border-border bg-surface" data-testid="paths-flow">
        <svg width={width} height={HEIGHT} role="group" aria-label="Decision path flow; the tables below list the same figures">
          <g>
            {(layout.links as Link[]).map((link, i) => {
              const target = link.target as Node;
              const to = link.to;
              const label = describe(link, target).join('. ');
              const d = path(link) ?? '';
              const band = (
                <path
                  d={d}
                  fill="none"
                  style={{ stroke: bandColor(link.errorShare), strokeOpacity: active && active.index !== i ? 0.45 : 1 }}
                  strokeWidth={Math.max(1.5, link.width ?? 1)}
                  data-testid="flow-link"
                  data-target={target.kind === 'outcome' ? target.status : stepText(target.steps[0])}
                />
              );
              const show = (x: number, y: number) => setActive({ index: i, x, y });
              return to ? (
                <a
                  key={i}
                  href={targetHref(req, to)}
                  aria-label={label}
                  onMouseMove={(e) => {
                    const box = frameRef.current!.getBoundingClientRect();
                    show(e.clientX - box.left + frameRef.current!.scrollLeft, e.clientY - box.top);
                  }}
                  onMouseLeave={() => setActive(null)}
                  onFocus={() => show(((link.source as Node).x1! + target.x0!) / 2, ((link.y0 ?? 0) + (link.y1 ?? 0)) / 2)}
                  onBlur={() => setActive(null)}
                  className="cursor-pointer focus:outline-none"
                >
                  {band}
                  {active?.index === i && <path d={d} fill="none" stroke="var(--c-fg)" strokeOpacity={0.25} strokeWidth={Math.max(1.5, link.width ?? 1) + 2} pointerEvents="none" />}
                </a>
              ) : (
                <g key={i} onMouseLeave={() => setActive(null)} onMouseMove={(e) => {
                  const box = frameRef.current!.getBoundingClientRect();
                  show(e.clientX - box.left + frameRef.current!.scrollLeft, e.clientY - box.top);
                }}>
                  {band}
                </g>
              );
            })}
          </g>
          <g>
            {(layout.nodes as Node[]).map((n) => {
              const h = Math.max(2, n.y1! - n.y0!);
              const outcome = n.kind === 'outcome';
              const fill = outcome ? bandColor(n.status === 'ERROR' ? 1 : n.status === 'COMPLETED' ? 0 : null) : 'var(--c-muted)';
              const sub = nodeSubtitle(n);
              const textX = outcome ? n.x1! + LABEL_GAP : n.x0! + NODE_WIDTH + 4;
              return (
                <g key={n.id} data-testid="flow-node">
                  <rect x={n.x0} y={n.y0} width={NODE_WIDTH} height={h} rx={2} style={{ fill }}>
                    <title>{n.steps.map(stepText).join(' → ') || nodeTitle(n)}</title>
                  </rect>
                  <text x={textX} y={(n.y0! + n.y1!) / 2} dy="-0.1em" fontSize={12} style={{ fill: 'var(--c-fg)' }} pointerEvents="none">
                    {outcome ? outcomeLabel(n, n.value ?? 0) : truncate(nodeTitle(n), 22)}
                  </text>
                  {sub && (
                    <text x={textX} y={(n.y0! + n.y1!) / 2} dy="1.1em" fontSize={11} style={{ fill: 'var(--c-muted)' }} pointerEvents="none">
                      {sub}
                    </text>
                  )}
                </g>
              );
            })}
          </g>
        </svg>
        {shown && active && (
          <div
            role="tooltip"
            data-testid="flow-tooltip"
            className="pointer-events-none absolute z-10 max-w-xs rounded-md border border-border-strong bg-bg px-3 py-2 text-xs text-fg shadow-lg"
            style={{ left: Math.min(active.x + 12, width - 260), top: Math.min(active.y + 12, HEIGHT - 120) }}
          >
            {describe(shown, shown.target as Node).map((line, i) => (
              <p key={i} className={i === 0 ? 'font-semibold' : 'text-muted'}>
                {line}
              </p>
            ))}
          </div>
        )}
      </div>
    </section>
  );
}

const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
