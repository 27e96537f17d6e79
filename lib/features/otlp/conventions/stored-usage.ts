// A stored model call's token split, for the trace page: the JSON API's `metadata.usage`
// (any shape pricing reads), else the attributes an OTLP span keeps in its metadata (every
// convention usageOf reads). The span's own tokenCount is only the sum.
import type { JsonValue } from '@/lib/core/json';
import { usageCounts } from '@/lib/features/pricing/shared';
import { usageOf } from './tokens';

export interface TokenSplit {
  /** Prompt (input) tokens, cached ones included; absent when not reported. */
  input?: number;
  /** Completion (output) tokens. */
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** The prompt and completion tokens a stored span's metadata reports, or null when it reports neither. */
export function tokenSplitOf(metadata: JsonValue): TokenSplit | null {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return null;
  const usage = usageCounts(metadata.usage) ?? usageOf(metadata);
  if (usage.inputTokens === undefined && usage.outputTokens === undefined) return null;
  const split: TokenSplit = {};
  const cached = (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0);
  // The prompt as sent to the model: an input count without its cache (Anthropic) gets it added.
  if (usage.inputTokens !== undefined) split.input = usage.inputIncludesCache ? usage.inputTokens : usage.inputTokens + cached;
  if (usage.outputTokens !== undefined) split.output = usage.outputTokens;
  if (usage.cacheReadTokens !== undefined) split.cacheRead = usage.cacheReadTokens;
  if (usage.cacheWriteTokens !== undefined) split.cacheWrite = usage.cacheWriteTokens;
  return split;
}
