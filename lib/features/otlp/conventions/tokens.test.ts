import { describe, expect, it } from 'vitest';
import { SpanAttributes } from '@/lib/features/otlp/attributes';
import type { Attributes } from '@/lib/features/otlp/types';
import { costOf, tokenCountOf, USAGE_TABLES, usageOf } from './tokens';

const tokens = (attributes: Attributes) => tokenCountOf(new SpanAttributes(attributes));
const cost = (attributes: Attributes) => costOf(new SpanAttributes(attributes));

describe('usageOf', () => {
  it('reads GenAI usage with its cache attributes, the response model before the request model', () => {
    expect(
      usageOf({
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.response.model': 'gpt-4o-2024-08-06',
        'gen_ai.provider.name': 'openai',
        'gen_ai.usage.input_tokens': 120,
        'gen_ai.usage.output_tokens': 18,
        'gen_ai.usage.cache_read.input_tokens': 20,
        'gen_ai.usage.cache_creation.input_tokens': 0,
      }),
    ).toEqual({
      inputTokens: 120,
      outputTokens: 18,
      cacheReadTokens: 20,
      cacheWriteTokens: 0,
      inputIncludesCache: true,
      model: 'gpt-4o-2024-08-06',
      provider: 'openai',
    });
  });

  it("reads the AI SDK's cache split on its model calls, which repeat their counts as GenAI usage", () => {
    const call = {
      'ai.model.provider': 'openai.chat',
      'ai.model.id': 'gpt-4o-mini',
      'gen_ai.request.model': 'gpt-4o-mini',
      'ai.usage.inputTokens': 120,
      'ai.usage.inputTokenDetails.noCacheTokens': 80,
      'ai.usage.inputTokenDetails.cacheReadTokens': 40,
      'ai.usage.inputTokenDetails.cacheWriteTokens': 0,
      'ai.usage.cachedInputTokens': 40,
      'ai.usage.outputTokens': 18,
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 18,
    };
    expect(usageOf(call)).toEqual({
      inputTokens: 120,
      outputTokens: 18,
      cacheReadTokens: 40,
      cacheWriteTokens: 0,
      inputIncludesCache: true,
      model: 'gpt-4o-mini',
      provider: 'openai.chat',
    });
    // AI SDK 5 sends the cached count alone.
    expect(usageOf({ 'ai.usage.inputTokens': 120, 'ai.usage.cachedInputTokens': 40, 'ai.usage.outputTokens': 18 })).toMatchObject({
      inputTokens: 120,
      cacheReadTokens: 40,
      inputIncludesCache: true,
    });
  });

  it("takes the AI SDK's noCacheTokens as the word on whether its input count includes the cache", () => {
    // AI SDK 6 counts every input token, also for Anthropic, whose own count leaves the cache out.
    const anthropic = {
      'ai.model.provider': 'anthropic.messages',
      'ai.usage.inputTokens': 1000,
      'ai.usage.inputTokenDetails.noCacheTokens': 100,
      'ai.usage.inputTokenDetails.cacheReadTokens': 900,
      'ai.usage.outputTokens': 10,
    };
    expect(usageOf(anthropic)).toMatchObject({ inputTokens: 1000, cacheReadTokens: 900, inputIncludesCache: true });
    expect(tokens(anthropic)).toBe(1010);
    // An input count equal to the uncached part leaves the cache out.
    expect(usageOf({ ...anthropic, 'ai.usage.inputTokens': 100 })).toMatchObject({ inputTokens: 100, inputIncludesCache: false });
    // Without a total, the parts are the input.
    const parts = { 'ai.usage.inputTokenDetails.noCacheTokens': 100, 'ai.usage.inputTokenDetails.cacheReadTokens': 900, 'ai.usage.outputTokens': 10 };
    expect(usageOf(parts)).toMatchObject({ inputTokens: 1000, cacheReadTokens: 900, outputTokens: 10, inputIncludesCache: true });
  });

  it("takes OpenLLMetry's older cache names, and Anthropic's input count as excluding the cache", () => {
    expect(
      usageOf({
        'gen_ai.system': 'anthropic',
        'gen_ai.request.model': 'claude-sonnet-4',
        'gen_ai.usage.input_tokens': 12,
        'gen_ai.usage.output_tokens': 40,
        'gen_ai.usage.cache_read_input_tokens': 900,
        'gen_ai.usage.cache_creation_input_tokens': 100,
      }),
    ).toEqual({
      inputTokens: 12,
      outputTokens: 40,
      cacheReadTokens: 900,
      cacheWriteTokens: 100,
      inputIncludesCache: false,
      model: 'claude-sonnet-4',
      provider: 'anthropic',
    });
  });

  it('knows an input count smaller than its cached part excludes it, whatever the provider', () => {
    expect(usageOf({ 'gen_ai.usage.input_tokens': 5, 'gen_ai.usage.cache_read.input_tokens': 50 }).inputIncludesCache).toBe(false);
  });

  it('reads OpenInference token counts with prompt_details', () => {
    expect(
      usageOf({
        'llm.model_name': 'gpt-4o-mini',
        'llm.provider': 'openai',
        'llm.token_count.prompt': 42,
        'llm.token_count.completion': 12,
        'llm.token_count.total': 54,
        'llm.token_count.prompt_details.cache_read': 10,
        'llm.token_count.prompt_details.cache_write': 2,
      }),
    ).toEqual({ inputTokens: 42, outputTokens: 12, cacheReadTokens: 10, cacheWriteTokens: 2, inputIncludesCache: true, model: 'gpt-4o-mini', provider: 'openai' });
  });

  it('reads the AI SDK: v6 token details, cachedInputTokens, v4 names, embeddings', () => {
    expect(
      usageOf({
        'ai.model.id': 'gpt-4o-mini',
        'ai.model.provider': 'openai.chat',
        'ai.response.model': 'gpt-4o-mini-2024-07-18',
        'ai.usage.inputTokens': 120,
        'ai.usage.outputTokens': 18,
        'ai.usage.inputTokenDetails.cacheReadTokens': 20,
        'ai.usage.inputTokenDetails.cacheWriteTokens': 0,
      }),
    ).toEqual({
      inputTokens: 120,
      outputTokens: 18,
      cacheReadTokens: 20,
      cacheWriteTokens: 0,
      inputIncludesCache: true,
      model: 'gpt-4o-mini-2024-07-18',
      provider: 'openai.chat',
    });
    expect(usageOf({ 'ai.usage.inputTokens': 30, 'ai.usage.outputTokens': 1, 'ai.usage.cachedInputTokens': 8 })).toMatchObject({ cacheReadTokens: 8 });
    expect(usageOf({ 'ai.usage.promptTokens': 7, 'ai.usage.completionTokens': 3 })).toMatchObject({ inputTokens: 7, outputTokens: 3 });
    expect(usageOf({ 'ai.usage.tokens': 9 })).toEqual({ inputTokens: 9, inputIncludesCache: true });
  });

  it("reads Langfuse's usage_details, whose input leaves the cached tokens out, and its OpenAI-named variant", () => {
    expect(
      usageOf({
        'langfuse.observation.model.name': 'gpt-4o',
        'langfuse.observation.usage_details': '{"input":70,"input_cached_tokens":30,"output":20,"total":120}',
      }),
    ).toEqual({ inputTokens: 70, outputTokens: 20, cacheReadTokens: 30, inputIncludesCache: false, model: 'gpt-4o' });
    expect(
      usageOf({ 'langfuse.observation.usage_details': '{"input":5,"output":9,"cache_read_input_tokens":800,"cache_creation_input_tokens":60}' }),
    ).toEqual({ inputTokens: 5, outputTokens: 9, cacheReadTokens: 800, cacheWriteTokens: 60, inputIncludesCache: false });
    expect(usageOf({ 'langfuse.observation.usage_details': '{"prompt_tokens":100,"completion_tokens":4,"total_tokens":104}' })).toEqual({
      inputTokens: 100,
      outputTokens: 4,
      inputIncludesCache: true,
    });
  });

  it('reads a stored span metadata object the same as attributes, and reports nothing when there is nothing', () => {
    const metadata = { 'gen_ai.usage.input_tokens': 3, 'gen_ai.usage.output_tokens': 4, otel: { kind: 'CLIENT' } };
    expect(usageOf(metadata)).toEqual({ inputTokens: 3, outputTokens: 4, inputIncludesCache: true });
    expect(usageOf({})).toEqual({ inputIncludesCache: true });
    expect(usageOf({ 'langfuse.observation.usage_details': 'not json' })).toEqual({ inputIncludesCache: true });
  });

  it('ranks OpenInference over the AI SDK over GenAI (the AI SDK repeats its counts as gen_ai.usage.*, without the cache split)', () => {
    expect(usageOf({ 'gen_ai.usage.input_tokens': 1, 'ai.usage.inputTokens': 2 }).inputTokens).toBe(2);
    expect(usageOf({ 'llm.token_count.prompt': 5, 'gen_ai.usage.input_tokens': 1 }).inputTokens).toBe(5);
  });
});

describe('tokenCountOf and costOf', () => {
  it('counts input with its cache, plus output', () => {
    expect(tokens({ 'gen_ai.usage.input_tokens': 120, 'gen_ai.usage.output_tokens': 18, 'gen_ai.usage.cache_read.input_tokens': 20 })).toBe(138);
    expect(tokens({ 'gen_ai.system': 'anthropic', 'gen_ai.usage.input_tokens': 12, 'gen_ai.usage.output_tokens': 40, 'gen_ai.usage.cache_read.input_tokens': 900 })).toBe(952);
    expect(tokens({ 'langfuse.observation.usage_details': '{"input":70,"input_cached_tokens":30,"output":20}' })).toBe(120);
    expect(tokens({ 'langfuse.observation.usage_details': '{"total":33}' })).toBe(33);
    expect(tokens({})).toBeNull();
  });

  it("takes Langfuse's cost_details total", () => {
    expect(cost({ 'langfuse.observation.cost_details': '{"input":0.1,"output":0.2,"total":0.3}' })).toBe(0.3);
    expect(cost({ 'langfuse.observation.cost_details': '{"input":0.1}' })).toBeNull();
    expect(cost({ 'llm.cost.total': 0.5, 'langfuse.observation.cost_details': '{"total":0.3}' })).toBe(0.5);
  });
});

describe('USAGE_TABLES namespaces', () => {
  // A table is skipped for spans without a key in its namespace: every attribute it reads must be in it.
  it.each(USAGE_TABLES.map((t) => [t.convention, t] as const))('%s reads only its own namespace', (_, table) => {
    const keys =
      table.json !== undefined
        ? [table.json]
        : [...(table.input ?? []), ...(table.output ?? []), ...(table.uncachedInput ?? []), ...(table.cacheRead ?? []), ...(table.cacheWrite ?? []), ...(table.total ? [table.total] : [])];
    for (const key of keys) expect(key.startsWith(`${table.namespace}.`)).toBe(true);
  });
});
