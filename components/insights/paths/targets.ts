// Where the paths page's figures drill down to: the trace list with the page's window and
// filters, and the path or fork the figure stands for. Safe for client components.
import { drillDownHref, type InsightsFilters } from '@/lib/client/insights';
import type { FlowTarget } from './flow';

export type Window = { from: string; to: string } & InsightsFilters;

export function targetHref(req: Window, to: FlowTarget): string {
  return to.kind === 'fork'
    ? drillDownHref(req, { fork: to.forkId, chosen: to.label })
    : drillDownHref(req, to.status ? { path: to.pathId, status: to.status } : { path: to.pathId });
}
