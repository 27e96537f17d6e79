// Token usage and cost, as data. Tokens count on LLM_CALL spans only (the mapper asks
// only for those): a wrapper (an agent span, Vercel's ai.generateText) repeats the sum of
// its model calls, and the trace's total must not count them twice.
import type { SpanAttributes } from '../attributes';

export interface TokenTable {
  convention: string;
  input?: string;
  output?: string;
  /** Used when the span has neither input nor output count. */
  total?: string;
}

/** In priority order; the first table the span has counts for wins (Vercel spans repeat their usage as gen_ai.usage.*). */
export const TOKEN_TABLES: readonly TokenTable[] = [
  { convention: 'openinference', input: 'llm.token_count.prompt', output: 'llm.token_count.completion', total: 'llm.token_count.total' },
  { convention: 'gen_ai', input: 'gen_ai.usage.input_tokens', output: 'gen_ai.usage.output_tokens' },
  { convention: 'gen_ai (before 1.27)', input: 'gen_ai.usage.prompt_tokens', output: 'gen_ai.usage.completion_tokens' },
  { convention: 'vercel-ai', input: 'ai.usage.inputTokens', output: 'ai.usage.outputTokens' },
  { convention: 'vercel-ai (before 5)', input: 'ai.usage.promptTokens', output: 'ai.usage.completionTokens' },
  { convention: 'vercel-ai embeddings', total: 'ai.usage.tokens' },
];

/** Cost in USD, first key present wins; on any span that carries it. */
export const COST_KEYS: readonly string[] = ['llm.cost.total', 'gen_ai.usage.cost'];

const count = (attributes: SpanAttributes, key: string | undefined): number | undefined => {
  if (key === undefined) return undefined;
  const n = attributes.number(key);
  return n !== undefined && n >= 0 ? n : undefined;
};

/** Input + output tokens of a model call, or null when it reports none. */
export function tokenCountOf(attributes: SpanAttributes): number | null {
  for (const table of TOKEN_TABLES) {
    const input = count(attributes, table.input);
    const output = count(attributes, table.output);
    if (input !== undefined || output !== undefined) return (input ?? 0) + (output ?? 0);
    const total = count(attributes, table.total);
    if (total !== undefined) return total;
  }
  return null;
}

export function costOf(attributes: SpanAttributes): number | null {
  for (const key of COST_KEYS) {
    const cost = count(attributes, key);
    if (cost !== undefined) return cost;
  }
  return null;
}
