// MODEL_PRICES_FILE: the operator's own prices, which override the catalog. Parsed and
// validated once at start (lib/core/config.ts validateConfig), so a bad file stops the server
// with the entry and field at fault. No catalog here: lib/core/config.ts imports this.

// The file: a JSON array, first match wins, e.g.
// [{"model": "gpt-4o-mini", "inputPerMillion": 0.15, "outputPerMillion": 0.6, "cacheReadPerMillion": 0.075},
//  {"pattern": "^ft:gpt-4o-mini:", "inputPerMillion": 0.3, "outputPerMillion": 1.2}]
const FIELDS = new Set(['model', 'pattern', 'inputPerMillion', 'outputPerMillion', 'cacheReadPerMillion', 'cacheWritePerMillion']);

/** Parses the file's text; throws an Error naming the entry and field at fault. */
/** One entry of MODEL_PRICES_FILE: a model id (case-insensitive) or a pattern, and USD per million tokens. */
export interface CustomPrice {
  /** What pricedModel records: the model id, or the pattern's source. */
  label: string;
  /** Exact model id, lower-cased; absent when `pattern` is given. */
  model?: string;
  pattern?: RegExp;
  inputPerMillion: number;
  outputPerMillion: number;
  /** Default: the input price. */
  cacheReadPerMillion: number;
  /** Default: the input price. */
  cacheWritePerMillion: number;
}

export function parseCustomPrices(text: string, source = 'MODEL_PRICES_FILE'): CustomPrice[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`${source} is not valid JSON: ${(err as Error).message}`);
  }
  if (!Array.isArray(raw)) throw new Error(`${source} must hold a JSON array of prices ([{"model": ..., "inputPerMillion": ..., "outputPerMillion": ...}])`);
  return raw.map((entry: unknown, i) => {
    const at = `${source}[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new Error(`${at} must be an object`);
    const e = entry as Record<string, unknown>;
    const unknown = Object.keys(e).find((k) => !FIELDS.has(k));
    if (unknown !== undefined) throw new Error(`${at} has an unknown field "${unknown}" (fields: ${[...FIELDS].join(', ')})`);
    const hasModel = e.model !== undefined;
    const hasPattern = e.pattern !== undefined;
    if (hasModel === hasPattern) throw new Error(`${at} needs either "model" (an exact model id) or "pattern" (a regular expression), not both`);
    const text = (field: 'model' | 'pattern') => {
      const value = e[field];
      if (typeof value !== 'string' || value.trim() === '') throw new Error(`${at}.${field} must be a non-empty string`);
      return value.trim();
    };
    const price = (field: string, fallback?: number): number => {
      const value = e[field];
      if (value === undefined && fallback !== undefined) return fallback;
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
        throw new Error(`${at}.${field} must be a non-negative number (USD per million tokens)`);
      }
      return value;
    };
    const inputPerMillion = price('inputPerMillion');
    const common = {
      inputPerMillion,
      outputPerMillion: price('outputPerMillion'),
      cacheReadPerMillion: price('cacheReadPerMillion', inputPerMillion),
      cacheWritePerMillion: price('cacheWritePerMillion', inputPerMillion),
    };
    if (hasModel) {
      const model = text('model');
      return { label: model, model: model.toLowerCase(), ...common };
    }
    const expression = text('pattern');
    let pattern: RegExp;
    try {
      pattern = new RegExp(expression, 'i');
    } catch (err) {
      throw new Error(`${at}.pattern is not a valid regular expression: ${(err as Error).message}`);
    }
    return { label: expression, pattern, ...common };
  });
}
