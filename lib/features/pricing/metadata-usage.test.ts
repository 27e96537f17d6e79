// The JSON API's span metadata shapes that describe a model call, as a table.
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '@/lib/features/traces/types';
import { usageFromMetadata } from './metadata-usage';

const SHAPES: Array<{ name: string; metadata: JsonValue; expected: object }> = [
  {
    name: 'ours (the catalog terms): input includes the cache',
    metadata: { model: 'gpt-4o', provider: 'openai', usage: { input_tokens: 100, output_tokens: 5, cache_read_tokens: 40, cache_write_tokens: 0 } },
    expected: { model: 'gpt-4o', provider: 'openai', inputTokens: 100, outputTokens: 5, cacheReadTokens: 40, cacheWriteTokens: 0, inputIncludesCache: true },
  },
  {
    name: "Anthropic's usage object: input without the cache",
    metadata: { model: 'claude-sonnet-4-20250514', usage: { input_tokens: 3, output_tokens: 9, cache_read_input_tokens: 7, cache_creation_input_tokens: 11 } },
    expected: { model: 'claude-sonnet-4-20250514', inputTokens: 3, outputTokens: 9, cacheReadTokens: 7, cacheWriteTokens: 11, inputIncludesCache: false },
  },
  {
    name: "OpenAI Chat Completions' usage object",
    metadata: { model: 'gpt-4o-mini', usage: { prompt_tokens: 50, completion_tokens: 8, total_tokens: 58, prompt_tokens_details: { cached_tokens: 32 } } },
    expected: { model: 'gpt-4o-mini', inputTokens: 50, outputTokens: 8, cacheReadTokens: 32, cacheWriteTokens: undefined, inputIncludesCache: true },
  },
  {
    name: "OpenAI Responses' usage object",
    metadata: { model: 'gpt-4.1', usage: { input_tokens: 50, output_tokens: 8, input_tokens_details: { cached_tokens: 16 } } },
    expected: { model: 'gpt-4.1', inputTokens: 50, outputTokens: 8, cacheReadTokens: 16, cacheWriteTokens: undefined, inputIncludesCache: true },
  },
];

describe('usageFromMetadata', () => {
  it.each(SHAPES)('$name', ({ metadata, expected }) => {
    expect(usageFromMetadata(metadata)).toEqual(expected);
  });

  it.each([
    ['no metadata', null],
    ['no model', { usage: { input_tokens: 1 } }],
    ['a model that is not a string', { model: 3, usage: { input_tokens: 1 } }],
    ['no usage', { model: 'gpt-4o' }],
    ['a usage of no known shape', { model: 'gpt-4o', usage: { tokens: 5 } }],
    ['an array', [{ model: 'gpt-4o' }]],
  ])('%s: no model call', (_name, metadata) => {
    expect(usageFromMetadata(metadata)).toBeNull();
  });

  it('ignores counts that are not non-negative numbers, without refusing anything', () => {
    expect(usageFromMetadata({ model: 'm', usage: { input_tokens: '5', output_tokens: -1 } })).toMatchObject({ inputTokens: undefined, outputTokens: undefined });
  });
});
