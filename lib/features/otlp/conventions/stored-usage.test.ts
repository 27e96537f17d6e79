import { describe, expect, it } from 'vitest';
import { tokenSplitOf } from './stored-usage';

describe('tokenSplitOf', () => {
  it('reads the JSON API’s metadata.usage in each shape, with or without a model', () => {
    expect(tokenSplitOf({ model: 'gpt-4o', usage: { prompt_tokens: 120, completion_tokens: 18 } })).toEqual({ input: 120, output: 18 });
    expect(tokenSplitOf({ usage: { input_tokens: 40, output_tokens: 7, cache_read_tokens: 10 } })).toEqual({ input: 40, output: 7, cacheRead: 10 });
    // Anthropic counts the uncached input only: the prompt adds the cache back.
    expect(tokenSplitOf({ usage: { input_tokens: 12, output_tokens: 40, cache_read_input_tokens: 900, cache_creation_input_tokens: 100 } })).toEqual({
      input: 1012,
      output: 40,
      cacheRead: 900,
      cacheWrite: 100,
    });
  });

  it('reads the attributes an OTLP span keeps in its metadata', () => {
    expect(tokenSplitOf({ 'gen_ai.usage.input_tokens': 120, 'gen_ai.usage.output_tokens': 18 })).toEqual({ input: 120, output: 18 });
    expect(tokenSplitOf({ 'llm.token_count.prompt': 5, 'llm.token_count.completion': 3, 'llm.token_count.total': 8 })).toEqual({ input: 5, output: 3 });
    expect(tokenSplitOf({ 'ai.usage.promptTokens': 9, 'ai.usage.completionTokens': 2 })).toEqual({ input: 9, output: 2 });
  });

  it('is null without a split', () => {
    expect(tokenSplitOf(null)).toBeNull();
    expect(tokenSplitOf([1, 2])).toBeNull();
    expect(tokenSplitOf({ model: 'gpt-4o' })).toBeNull();
    expect(tokenSplitOf({ usage: { total: 3 } })).toBeNull();
    expect(tokenSplitOf({ 'llm.token_count.total': 8 })).toEqual({ input: 8 });
  });
});
