// The option-label rule of labels.ts as SQL, for queries over "DecisionPoint"."chosen"
// and the elements of "alternatives". The one place the rule is written in SQL: the
// insights aggregates and the list's `chosen` filter both build on it.
//
// The expression has no subquery and calls only immutable functions, so it can later
// serve in an expression index or a generated column unchanged.
import { LABEL_KEYS, MAX_LABEL_CHARS } from '@/lib/features/insights/shared';
import { join, raw, sql, type Sql } from '@/lib/db/sql';

// Turns jsonb's text (`{"a": 1.50, "b": [1, "x y"]}`) into the compact form of labels.ts
// (`{"a":1.5,"b":[1,"x y"]}`). jsonb's text has whitespace only as one space after ':' and
// ',', and numbers only in plain decimal, so one pass suffices. Each match is one of:
//   1. a string literal, kept whole (\1): its spaces, dots and digits are text; it may be
//      cut off by the end of the input (then a trailing lone backslash belongs to it);
//   2. a space outside strings: dropped;
//   3. a fraction ending in zeros: kept up to its last non-zero digit (\2);
//   4. a fraction of zeros only: dropped, with its point;
//   5. a point ending the input (a prefix cut inside a number): dropped.
// So the compact text of any prefix of jsonb's text is itself a prefix of the compact text
// of the whole, which lets long values be compacted from a bounded prefix (see below).
const COMPACT_PATTERN = String.raw`("(?:[^"\\]|\\.)*(?:"|\\?$))| |(\.[0-9]*[1-9])0+(?![0-9])|\.0+(?![0-9])|\.$`;

// SQL literals, quotes doubled (none today, but the pattern is data).
const literal = (text: string) => raw(`'${text.replaceAll("'", "''")}'`);
const PATTERN = literal(COMPACT_PATTERN);
const REPLACEMENT = literal(String.raw`\1\2`);
const compact = (text: Sql) => sql`regexp_replace(${text}, ${PATTERN}, ${REPLACEMENT}, 'g')`;

// Compaction at most halves a text's length (one space per ':' or ','), so the compact text
// of its first 2 * MAX_LABEL_CHARS characters holds the label, unless fraction zeros were
// stripped too: then the whole text is compacted (the prefix being too short says so).
// (PostgreSQL does not share the repeated prefix compaction between the WHEN and THEN; a
// subquery would, but would keep the expression out of indexes. It only runs past 400
// characters of jsonb text without a label key.)
const MAX = raw(String(MAX_LABEL_CHARS));
const PREFIX = raw(String(2 * MAX_LABEL_CHARS));

/**
 * The label (text, at most MAX_LABEL_CHARS characters) of the jsonb value `value` evaluates
 * to; SQL NULL is labelled "null", like a JSON null. `value` is repeated in the expression:
 * pass a column, not a computation.
 */
export function optionLabelSql(value: Sql): Sql {
  const v = sql`(${value})`;
  const keyed = LABEL_KEYS.map(
    (key) => sql`WHEN jsonb_typeof(${v} -> ${literal(key)}) = 'string' THEN left(${v} ->> ${literal(key)}, ${MAX})`,
  );
  const text = sql`${v}::text`;
  const prefix = compact(sql`left(${text}, ${PREFIX})`);
  return sql`CASE
    WHEN ${v} IS NULL THEN 'null'
    WHEN jsonb_typeof(${v}) = 'string' THEN left(${v} #>> '{}', ${MAX})
    ${join(keyed, ' ')}
    WHEN length(${text}) <= ${PREFIX} THEN left(${compact(text)}, ${MAX})
    WHEN length(${prefix}) >= ${MAX} THEN left(${prefix}, ${MAX})
    ELSE left(${compact(text)}, ${MAX})
  END`;
}

/** The elements of an "alternatives" value, as rows of a `value` column; none when it is not an array. */
export function alternativesSql(alternatives: Sql): Sql {
  return sql`jsonb_array_elements(CASE WHEN jsonb_typeof(${alternatives}) = 'array' THEN ${alternatives} ELSE '[]'::jsonb END)`;
}

/**
 * A subquery of one column, `label`: the options a decision point offered, each label once:
 * its chosen option's label (`chosenLabel`, already computed with optionLabelSql) and its
 * alternatives' labels, so an SDK that lists the chosen option among the alternatives does
 * not count it twice. Use it in a LATERAL join.
 */
export function offeredLabelsSql(chosenLabel: Sql, alternatives: Sql): Sql {
  return sql`(SELECT ${chosenLabel} AS label UNION SELECT ${optionLabelSql(raw('alt.value'))} FROM ${alternativesSql(alternatives)} AS alt)`;
}
