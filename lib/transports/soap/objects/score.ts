// SCORE: run saves one score (as POST /api/scores does, source API) from the FLDs
// TRACE_ID, SPAN_ID, DECISION_ID, SESSION_ID, NAME, VALUE, DATA_TYPE, COMMENT, and answers
// it as stored. VALUE is text: DATA_TYPE says how to read it (NUMERIC a decimal number,
// BOOLEAN true/false/1/0, CATEGORICAL as is); without DATA_TYPE, "true"/"false" is a
// BOOLEAN, a decimal number NUMERIC, anything else CATEGORICAL. A trace read with scores
// carries them in a SCORES TAB of these fields.
import 'server-only';
import { AppError } from '@/lib/core/errors';
import { saveScore } from '@/lib/features/scores';
import { SCORE_DATA_TYPES, SCORE_SOURCES, type ScoreRecord } from '@/lib/features/scores/shared';
import { validateScore } from '@/lib/features/scores/shared';
import { resultElement, type ParamFields } from '@/lib/transports/soap/codec';
import { recordFields, type FieldDef } from '@/lib/transports/soap/fields';
import type { PublicObject } from '@/lib/transports/soap/registry';
import { description } from './describe';

const NAME = 'SCORE';

const PARAMS: FieldDef[] = [
  { name: 'TRACE_ID', type: 'Char' },
  { name: 'SPAN_ID', type: 'Char' },
  { name: 'DECISION_ID', type: 'Char' },
  { name: 'SESSION_ID', type: 'Char' },
  { name: 'NAME', type: 'Char', required: true },
  { name: 'VALUE', type: 'Char', required: true },
  { name: 'DATA_TYPE', type: 'Char', values: SCORE_DATA_TYPES },
  { name: 'COMMENT', type: 'Char' },
];

const out = (name: string, type: FieldDef['type'], extra: Partial<FieldDef> = {}): FieldDef => ({ name, type, readOnly: true, ...extra });

/** A stored score's fields, in the JSON API's order (the author as two fields). */
export const SCORE_FIELDS: FieldDef[] = [
  out('id', 'Char'),
  out('traceId', 'Char'),
  out('spanId', 'Char'),
  out('decisionPointId', 'Char'),
  out('sessionId', 'Char'),
  out('name', 'Char'),
  out('value', 'Char'),
  out('dataType', 'Char', { values: SCORE_DATA_TYPES }),
  out('comment', 'Char'),
  out('source', 'Char', { values: SCORE_SOURCES }),
  out('authorKind', 'Char', { values: ['user', 'key', 'evaluator'] }),
  out('authorName', 'Char'),
  out('metadata', 'Json'),
  out('createdAt', 'DateTime'),
  out('updatedAt', 'DateTime'),
];

/** A score as the flat record SCORE_FIELDS describe. */
export function scoreRecordFields(score: ScoreRecord) {
  return recordFields(SCORE_FIELDS, { ...score, value: String(score.value), authorKind: score.author.kind, authorName: score.author.name });
}

const PARAM_TO_FIELD: Record<string, string> = {
  TRACE_ID: 'traceId',
  SPAN_ID: 'spanId',
  DECISION_ID: 'decisionPointId',
  SESSION_ID: 'sessionId',
  NAME: 'name',
  COMMENT: 'comment',
};

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

function valueOf(text: string, dataType: string | undefined): unknown {
  const trimmed = text.trim();
  switch (dataType) {
    case 'NUMERIC':
      if (!DECIMAL.test(trimmed)) throw new AppError('VALIDATION', 'VALUE must be a decimal number for DATA_TYPE NUMERIC');
      return Number(trimmed);
    case 'BOOLEAN':
      if (/^(true|1)$/i.test(trimmed)) return true;
      if (/^(false|0)$/i.test(trimmed)) return false;
      throw new AppError('VALIDATION', 'VALUE must be true, false, 1 or 0 for DATA_TYPE BOOLEAN');
    case 'CATEGORICAL':
      return text;
    default:
      if (/^(true|false)$/i.test(trimmed)) return trimmed.toLowerCase() === 'true';
      return DECIMAL.test(trimmed) ? Number(trimmed) : text;
  }
}

/** The run's FLDs as a POST /api/scores score object, for the domain validator. */
function scoreInputOf(ctx: { warn(message: string): void }, params: ParamFields): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  let value: string | null = null;
  let dataType: string | undefined;
  for (const [name, param] of params) {
    const key = name.toUpperCase();
    if (!PARAMS.some((p) => p.name === key)) {
      ctx.warn(`Unknown parameter "${name}" for ${NAME} ignored`);
      continue;
    }
    if (param.kind !== 'FLD') throw new AppError('VALIDATION', `Invalid ${name} parameter: must be a FLD, not a ${param.kind}`);
    if (param.value === null || param.value === '') continue;
    if (key === 'VALUE') value = param.value;
    else if (key === 'DATA_TYPE') dataType = param.value.trim().toUpperCase();
    else raw[PARAM_TO_FIELD[key]] = param.value;
  }
  if (dataType !== undefined) {
    if (!(SCORE_DATA_TYPES as readonly string[]).includes(dataType)) {
      throw new AppError('VALIDATION', `DATA_TYPE is invalid ("${dataType}"): must be one of ${SCORE_DATA_TYPES.join(', ')}`);
    }
    raw.dataType = dataType;
  }
  if (value === null) throw new AppError('VALIDATION', 'VALUE is required');
  raw.value = valueOf(value, dataType);
  return raw;
}

const FIELD_TO_PARAM = Object.fromEntries(Object.entries(PARAM_TO_FIELD).map(([param, field]) => [field, param]));

/** The domain's messages name the JSON fields (`SCORE.traceId`); SOAP callers know the FLDs (`TRACE_ID`). */
async function inParamNames<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const message = err.message.replace(/SCORE\.(\w+)/g, (whole, field: string) => FIELD_TO_PARAM[field] ?? (field === 'value' ? 'VALUE' : field === 'dataType' ? 'DATA_TYPE' : whole));
    throw new AppError(err.code, message, err.retryAfterSeconds);
  }
}

export const scoreObject: PublicObject = {
  name: NAME,
  runWrites: true,
  describe() {
    return description(NAME, [
      { tag: 'GRP', name: 'PARAM', fields: PARAMS },
      { tag: 'GRP', name: NAME, fields: SCORE_FIELDS },
    ]);
  },
  async run(ctx, params) {
    const saved = await inParamNames(async () => {
      const input = validateScore(scoreInputOf(ctx, params), NAME);
      return ctx.withContext((service) => saveScore(service, input));
    });
    ctx.meter.recordsWritten += 1;
    return {
      xml: resultElement([{ kind: 'GRP', id: NAME, fields: scoreRecordFields(saved) }]),
      json: saved,
    };
  },
};
