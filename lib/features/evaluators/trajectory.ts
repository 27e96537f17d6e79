// A run as compact text for the judge: its spans in the order they started, each with its
// tool call's input and result, and each decision with the option taken and the ones not
// taken, so a judge sees the path and not only the last step. Cut at a size the evaluator
// chooses, the cut said in the text.
import type { SqlExecutor } from '@/lib/db/executor';
import { sql } from '@/lib/db/sql';
import type { JsonValue } from '@/lib/core/json';
import { optionLabel } from '@/lib/features/insights/shared';

/** Characters of each payload shown in a step; rows read per run. */
const STEP_PAYLOAD_CHARS = 400;
const MAX_ROWS = 2_000;

interface StepRow {
  kind: 'span' | 'decision';
  at: string;
  type: string;
  name: string | null;
  status: string | null;
  statusMessage: string | null;
  durationMs: number | null;
  input: string | null;
  output: string | null;
  chosen: JsonValue | null;
  alternatives: JsonValue | null;
  reasoning: string | null;
}

const oneLine = (text: string | null, n = STEP_PAYLOAD_CHARS): string => {
  if (text === null) return '';
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
};

function line(row: StepRow, depth: number): string {
  const pad = '  '.repeat(Math.min(depth, 6));
  if (row.kind === 'decision') {
    const others = Array.isArray(row.alternatives) ? row.alternatives.map((a) => optionLabel(a)) : [];
    const why = row.reasoning ? ` because: ${oneLine(row.reasoning, 200)}` : '';
    return `${pad}DECISION ${row.type}: chose ${optionLabel(row.chosen ?? null)}${others.length ? ` over ${others.join(', ')}` : ''}${why}`;
  }
  const head = `${pad}${row.type} ${row.name ?? ''} ${row.status ?? ''}${row.durationMs !== null ? ` ${Math.round(row.durationMs)}ms` : ''}`;
  const parts = [head];
  if (row.input) parts.push(`in: ${oneLine(row.input)}`);
  if (row.output) parts.push(`out: ${oneLine(row.output)}`);
  if (row.status === 'ERROR' && row.statusMessage) parts.push(`error: ${oneLine(row.statusMessage, 200)}`);
  return parts.join(' | ');
}

/** The trajectory of one trace, at most `maxChars` characters. */
export async function traceTrajectory(db: SqlExecutor, traceId: string, maxChars: number): Promise<string> {
  const rows = await db.query<StepRow & { id: string; parent: string | null }>(sql`
    SELECT * FROM (
      SELECT 'span' AS kind, s."id", s."parentSpanId" AS parent, s."startedAt" AS at, s."type"::text AS type, s."name", s."status"::text AS status,
             s."statusMessage", coalesce(s."durationMs", extract(epoch FROM s."endedAt" - s."startedAt") * 1000)::float8 AS "durationMs", left(s."input"::text, ${STEP_PAYLOAD_CHARS * 2}) AS input, left(s."output"::text, ${STEP_PAYLOAD_CHARS * 2}) AS output,
             NULL::jsonb AS chosen, NULL::jsonb AS alternatives, NULL AS reasoning
        FROM "Span" s WHERE s."traceId" = ${traceId}
      UNION ALL
      SELECT 'decision', d."id", d."parentSpanId", d."timestamp", d."type"::text, NULL, NULL, NULL, d."durationMs", NULL, NULL,
             d."chosen", d."alternatives", d."reasoning"
        FROM "DecisionPoint" d WHERE d."traceId" = ${traceId}
    ) steps ORDER BY at, kind DESC, id LIMIT ${MAX_ROWS + 1}`);
  const depth = new Map<string, number>();
  const lines: string[] = [];
  let used = 0;
  for (const [i, row] of rows.slice(0, MAX_ROWS).entries()) {
    const d = row.parent !== null ? (depth.get(row.parent) ?? 0) + 1 : 0;
    if (row.kind === 'span') depth.set(row.id, d);
    const text = line(row, d);
    if (used + text.length + 1 > maxChars) {
      lines.push(`… ${rows.length - i}${rows.length > MAX_ROWS ? '+' : ''} more steps cut`);
      break;
    }
    lines.push(text);
    used += text.length + 1;
  }
  return lines.join('\n');
}
