'use client';

import { groupDecisions } from '@/lib/features/traces/shared';
import { plural } from '@/lib/core/format';
import { DECISION_LABEL, DecisionGlyph } from '@/components/ui/badges';
import { summarizeJson } from '@/components/json/json';
import type { Selection, TraceModel } from './model';

/** Rows the overview shows before "+N more". */
const ROWS = 6;

/** Switches the page to its Decisions tab in place, as the tabs do (no history entry). */
function openDecisionsTab() {
  const q = new URLSearchParams(window.location.search);
  q.set('tab', 'decisions');
  window.history.replaceState(null, '', `${window.location.pathname}?${q.toString()}`);
}

/**
 * The trace's decisions in the details panel's overview: every one counted, repeated ones
 * folded with their count, and a "+N more" that opens the Decisions tab when they do not fit.
 */
export function DecisionOverview({ model, onGo }: { model: TraceModel; onGo: (s: Selection) => void }) {
  const decisions = model.trace.decisionPoints;
  if (decisions.length === 0) return null;
  const groups = groupDecisions(decisions);
  const shown = groups.slice(0, ROWS);
  const hidden = groups.slice(ROWS).reduce((n, g) => n + g.decisions.length, 0);
  return (
    <section className="space-y-2" data-testid="overview-decisions">
      <h3 className="text-xs font-semibold tracking-wide text-muted uppercase">Decisions ({decisions.length.toLocaleString('en-US')})</h3>
      <ul className="space-y-1">
        {shown.map((g) => (
          <li key={g.key}>
            <button
              type="button"
              onClick={() => onGo({ kind: 'decision', id: g.decisions[0].id })}
              className="flex w-full items-center gap-2 rounded px-1 py-0.5 text-left hover:bg-surface-2"
            >
              <DecisionGlyph />
              <span className="shrink-0 text-xs text-muted">{DECISION_LABEL[g.type]}</span>
              <span className="truncate font-medium">→ {summarizeJson(g.decisions[0].chosen, 60)}</span>
              {g.decisions.length > 1 && (
                <span className="ml-auto shrink-0 text-xs text-muted tabular" title={`${plural(g.decisions.length, 'decision')} chose this`}>
                  ×{g.decisions.length.toLocaleString('en-US')}
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
      {hidden > 0 && (
        <button type="button" onClick={openDecisionsTab} className="px-1 text-sm text-accent hover:underline" data-testid="overview-decisions-more">
          +{hidden.toLocaleString('en-US')} more {hidden === 1 ? 'decision' : 'decisions'}
        </button>
      )}
    </section>
  );
}
