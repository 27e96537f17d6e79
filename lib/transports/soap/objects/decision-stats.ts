// DECISION_STATS: run returns what agents decide across the traces of a window, the
// figures of GET /api/insights/decisions (lib/features/insights/decisions.ts): totals, per
// decision type, per option (type and label) and retry/escalation rates per trace name.
// Parameters are read by the insights API's rules (insightsParamsFromValues): from/to (ISO
// 8601, a half-open window on startedAt, default the last 24 hours), name (exact) and tag.
import 'server-only';
import { decisionInsights, insightsParamsFromValues, type InsightsParamName } from '@/lib/features/insights';
import type { OptionStats } from '@/lib/features/insights/shared';
import { SCORE_DATA_TYPES } from '@/lib/features/scores/shared';
import { DECISION_TYPES } from '@/lib/features/traces/shared';
import { AppError } from '@/lib/core/errors';
import { fld, resultElement, tabNode, type ParamFields } from '@/lib/transports/soap/codec';
import type { FieldDef } from '@/lib/transports/soap/fields';
import type { PublicObject } from '@/lib/transports/soap/registry';
import { description } from './describe';

const NAME = 'DECISION_STATS';

const PARAM_NAMES = ['from', 'to', 'name', 'tag'] as const;

const PARAMS: FieldDef[] = [
  { name: 'from', type: 'DateTime' },
  { name: 'to', type: 'DateTime' },
  { name: 'name', type: 'Char' },
  { name: 'tag', type: 'Char' },
];

const out = (name: string, type: FieldDef['type'], extra: Partial<FieldDef> = {}): FieldDef => ({ name, type, readOnly: true, ...extra });

const TOTALS: FieldDef[] = [out('from', 'DateTime'), out('to', 'DateTime'), out('traces', 'Decimal'), out('decisionPoints', 'Decimal')];

const BY_TYPE: FieldDef[] = [
  out('type', 'Char', { values: DECISION_TYPES }),
  out('count', 'Decimal'),
  out('traces', 'Decimal'),
  out('avgDurationMs', 'Decimal'),
  out('avgCostUsd', 'Decimal'),
  out('errorTraceShare', 'Decimal'),
];

const OPTIONS: FieldDef[] = [
  out('type', 'Char', { values: DECISION_TYPES }),
  out('label', 'Char'),
  out('chosen', 'Decimal'),
  out('offered', 'Decimal'),
  out('errorTraceShareWhenChosen', 'Decimal'),
];

// Review figures per option (only options someone reviewed, or named a better option for).
const REVIEWS: FieldDef[] = [
  out('type', 'Char', { values: DECISION_TYPES }),
  out('label', 'Char'),
  out('reviewed', 'Decimal'),
  out('judgedRight', 'Decimal'),
  out('judgedRightShare', 'Decimal'),
  out('betterOptions', 'Json'),
];

const SCORES: FieldDef[] = [
  out('name', 'Char'),
  out('dataType', 'Char', { values: SCORE_DATA_TYPES }),
  out('count', 'Decimal'),
  out('average', 'Decimal'),
  out('categories', 'Json'),
];

const RATES: FieldDef[] = [out('name', 'Char'), out('traces', 'Decimal'), out('retryPer100', 'Decimal'), out('escalationPer100', 'Decimal')];

function reviewField(f: FieldDef, o: OptionStats) {
  switch (f.name) {
    case 'type':
      return fld.char('type', o.type);
    case 'label':
      return fld.char('label', o.label);
    case 'betterOptions':
      return fld.json('betterOptions', o.betterOptions ?? []);
    default:
      return fld.decimal(f.name, (o[f.name as 'reviewed' | 'judgedRight' | 'judgedRightShare'] ?? null) as number | null);
  }
}

/** The run parameters as the insights API's values: an empty or NULL FLD is absent, as there. */
function insightsValues(ctx: { warn(message: string): void }, params: ParamFields): Partial<Record<InsightsParamName, string>> {
  const values: Partial<Record<InsightsParamName, string>> = {};
  for (const [name, param] of params) {
    if (!(PARAM_NAMES as readonly string[]).includes(name)) {
      ctx.warn(`Unknown parameter "${name}" for ${NAME} ignored`);
    } else if (param.kind !== 'FLD') {
      throw new AppError('VALIDATION', `Invalid ${name} parameter: must be a FLD, not a ${param.kind}`);
    } else if (param.value !== null) {
      values[name as (typeof PARAM_NAMES)[number]] = param.value;
    }
  }
  return values;
}

export const decisionStatsObject: PublicObject = {
  name: NAME,
  describe() {
    return description(NAME, [
      { tag: 'GRP', name: 'PARAM', fields: PARAMS },
      { tag: 'GRP', name: NAME, fields: TOTALS },
      { tag: 'TAB', name: 'BY_TYPE', fields: BY_TYPE },
      { tag: 'TAB', name: 'OPTIONS', fields: OPTIONS },
      { tag: 'TAB', name: 'RATES_BY_TRACE_NAME', fields: RATES },
      { tag: 'TAB', name: 'REVIEWS', fields: REVIEWS },
      { tag: 'TAB', name: 'SCORES', fields: SCORES },
    ]);
  },
  async run(ctx, params) {
    // Invalid values are the insights API's VALIDATION errors, naming the parameter.
    const input = insightsParamsFromValues(insightsValues(ctx, params));
    const stats = await ctx.withContext((service) => decisionInsights(service, input));
    // The aggregate scans the window's traces and their decision points.
    ctx.meter.recordsRead += stats.totals.traces + stats.totals.decisionPoints;
    const reviewed = stats.options.filter((o) => (o.reviewed ?? 0) > 0 || (o.betterOptions ?? []).length > 0);
    const scores = stats.scores ?? [];
    return {
      xml: resultElement([
        {
          kind: 'GRP',
          id: NAME,
          fields: [
            fld.dateTime('from', stats.from),
            fld.dateTime('to', stats.to),
            fld.decimal('traces', stats.totals.traces),
            fld.decimal('decisionPoints', stats.totals.decisionPoints),
          ],
        },
        tabNode('BY_TYPE', stats.byType, (t) => [
          fld.char('type', t.type),
          fld.decimal('count', t.count),
          fld.decimal('traces', t.traces),
          fld.decimal('avgDurationMs', t.avgDurationMs),
          fld.decimal('avgCostUsd', t.avgCostUsd),
          fld.decimal('errorTraceShare', t.errorTraceShare),
        ]),
        tabNode('OPTIONS', stats.options, (o) => [
          fld.char('type', o.type),
          fld.char('label', o.label),
          fld.decimal('chosen', o.chosen),
          fld.decimal('offered', o.offered),
          fld.decimal('errorTraceShareWhenChosen', o.errorTraceShareWhenChosen),
        ]),
        tabNode('RATES_BY_TRACE_NAME', stats.ratesByTraceName, (r) => [
          fld.char('name', r.name),
          fld.decimal('traces', r.traces),
          fld.decimal('retryPer100', r.retryPer100),
          fld.decimal('escalationPer100', r.escalationPer100),
        ]),
        // The review TABs appear when the window holds reviews or scores (as TRACE's SCORES TAB).
        ...(reviewed.length > 0 ? [tabNode('REVIEWS', reviewed, (o) => REVIEWS.map((f) => reviewField(f, o)))] : []),
        ...(scores.length > 0
          ? [
              tabNode('SCORES', scores, (s) => [
                fld.char('name', s.name),
                fld.char('dataType', s.dataType),
                fld.decimal('count', s.count),
                fld.decimal('average', s.average),
                fld.json('categories', s.categories),
              ]),
            ]
          : []),
      ]),
      // adxwss.optreturn=JSON: exactly the body of GET /api/insights/decisions.
      json: stats,
    };
  },
};
