// The demo data's judgments, derived from the demo traces (so as deterministic as they
// are): two people's decision reviews (`decision.correct`, and `decision.better_option`
// with a comment where a choice was wrong), their tone labels on some replies, and an
// evaluator's scores on whole runs. Reviewers look at failures first: every failed run is
// reviewed, and the completed runs but the newest few, which are left for the review queue. What a reader should find matches the runs' fork: the analyst's blind
// `run_sql` is judged wrong every time, `describe_table` right; a refund issued without
// looking the order up is wrong when it failed.
import { DEMO_ID_PREFIX, type DemoTrace } from './dataset';

/** The newest demo runs, left for the review queue unless they failed. */
export const DEMO_UNREVIEWED_NEWEST = 12;

export interface DemoScore {
  id: string;
  traceId: string;
  spanId?: string;
  decisionPointId?: string;
  name: string;
  value: number | string | boolean;
  comment?: string;
}

export interface DemoScoreSet {
  /** Who wrote them: a person annotating in the viewer, or an evaluator's key through the API. */
  author: { kind: 'user'; name: string } | { kind: 'key'; name: string };
  scores: DemoScore[];
}

export const DEMO_REVIEWERS = { support: 'Priya Nair', analysis: 'Marco Bianchi' } as const;
export const DEMO_EVALUATOR = 'eval-bot';

type Verdict = { right: true; comment?: string } | { right: false; better: string; comment: string };

const label = (chosen: unknown, key: 'tool' | 'route'): string =>
  typeof chosen === 'string' ? chosen : String((chosen as Record<string, unknown> | null)?.[key] ?? '');

/** A reviewer's verdict on one decision of a run. */
function verdict(trace: DemoTrace, d: DemoTrace['decisionPoints'][number]): Verdict {
  const failed = trace.status === 'ERROR';
  switch (d.type) {
    case 'TOOL_SELECTION': {
      const tool = label(d.chosen, 'tool');
      if (tool === 'issue_refund' && failed) {
        return { right: false, better: 'lookup_order', comment: 'Check the order before refunding: the payments API refused it twice.' };
      }
      if (tool === 'run_sql' && d.id === 'first-tool') {
        return failed
          ? { right: false, better: 'describe_table', comment: 'Describe the table first: it is "orders", not "order".' }
          : { right: false, better: 'describe_table', comment: 'It worked this time, but the table name was a guess.' };
      }
      return { right: true };
    }
    case 'PLANNING':
      return label(d.chosen, 'tool') === 'answer from memory' && failed
        ? { right: false, better: 'search, read, summarise', comment: 'The facts have changed since training: search first.' }
        : { right: true };
    case 'ESCALATION':
      return { right: true, comment: 'Right to hand over after two failed refunds.' };
    default:
      return { right: true };
  }
}

/** The demo traces' scores, by author. */
export function demoScores(traces: readonly DemoTrace[]): DemoScoreSet[] {
  const newestFirst = [...traces].sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  const reviewed = newestFirst.filter((t, i) => i >= DEMO_UNREVIEWED_NEWEST || t.status === 'ERROR');
  const support: DemoScore[] = [];
  const analysis: DemoScore[] = [];
  const evaluator: DemoScore[] = [];
  const short = (t: DemoTrace) => t.id.slice(DEMO_ID_PREFIX.length);
  reviewed.forEach((t, n) => {
    const into = t.name === 'support-agent' ? support : analysis;
    for (const d of t.decisionPoints) {
      const v = verdict(t, d);
      const id = `${DEMO_ID_PREFIX}review-${short(t)}-${d.id}`;
      into.push({ id, traceId: t.id, decisionPointId: d.id, name: 'decision.correct', value: v.right, ...(v.comment ? { comment: v.comment } : {}) });
      if (!v.right) into.push({ id: `${id}-better`, traceId: t.id, decisionPointId: d.id, name: 'decision.better_option', value: v.better, comment: v.comment });
    }
    // The support reviewer labels the tone of every other reply she reads.
    const reply = t.spans.find((s) => s.id === 'reply');
    if (reply && n % 2 === 0) {
      support.push({ id: `${DEMO_ID_PREFIX}tone-${short(t)}`, traceId: t.id, spanId: reply.id, name: 'tone', value: n % 6 === 0 ? 'curt' : 'friendly' });
    }
  });
  // The evaluator scores every run it has seen (all but the newest few), on the whole trace.
  for (const t of newestFirst.slice(3)) {
    const ok = t.status === 'COMPLETED';
    const spread = t.spans.length % 5;
    evaluator.push({ id: `${DEMO_ID_PREFIX}eval-${short(t)}`, traceId: t.id, name: 'answer_quality', value: ((ok ? 82 : 20) + spread) / 100 });
  }
  return [
    { author: { kind: 'user', name: DEMO_REVIEWERS.support }, scores: support },
    { author: { kind: 'user', name: DEMO_REVIEWERS.analysis }, scores: analysis },
    { author: { kind: 'key', name: DEMO_EVALUATOR }, scores: evaluator },
  ];
}
