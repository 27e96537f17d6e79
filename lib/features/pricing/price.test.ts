// priceModelCall as a table: which usage, model and provider give which price and source.
import { describe, expect, it } from 'vitest';
import { calcPrice, findProvider } from '@pydantic/genai-prices';
import { tokenPrice } from './catalog';
import { parseCustomPrices } from '@/lib/core/custom-prices';
import { priceModelCall } from './price';
import { spanCost } from './span-cost';
import type { ModelUsage } from './types';

const AT = new Date('2026-06-01T12:00:00Z');

// The catalog's own answer for the same call, in its terms (input includes the cache).
const catalog = (usage: Record<string, number>, model: string, providerId?: string) =>
  calcPrice(usage, model, { timestamp: AT, ...(providerId && { providerId }) })!.total_price;

const custom = parseCustomPrices(
  JSON.stringify([
    { model: 'gpt-4o', inputPerMillion: 1, outputPerMillion: 2, cacheReadPerMillion: 0.5 },
    { pattern: '^acme-', inputPerMillion: 10, outputPerMillion: 20, cacheWritePerMillion: 12.5 },
  ]),
);

describe('priceModelCall', () => {
  const cases: Array<{ name: string; usage: ModelUsage; model?: string; provider?: string; prices?: typeof custom; expected: ReturnType<typeof priceModelCall> }> = [
    {
      name: 'OpenAI, cached tokens inside the input count (inclusive)',
      usage: { inputTokens: 1000, cacheReadTokens: 800, outputTokens: 100, inputIncludesCache: true },
      model: 'gpt-4o-2024-08-06',
      provider: 'openai',
      expected: {
        costUsd: catalog({ input_tokens: 1000, cache_read_tokens: 800, output_tokens: 100 }, 'gpt-4o-2024-08-06', 'openai'),
        source: 'catalog',
        pricedModel: 'gpt-4o',
      },
    },
    {
      name: 'Anthropic, input without the cache reads and writes (exclusive): they are added',
      usage: { inputTokens: 5, cacheWriteTokens: 4735, cacheReadTokens: 100, outputTokens: 255, inputIncludesCache: false },
      model: 'claude-sonnet-4-20250514',
      provider: 'anthropic',
      expected: {
        costUsd: catalog({ input_tokens: 4840, cache_write_tokens: 4735, cache_read_tokens: 100, output_tokens: 255 }, 'claude-sonnet-4-20250514', 'anthropic'),
        source: 'catalog',
        pricedModel: 'claude-sonnet-4-0',
      },
    },
    {
      name: 'a GenAI provider name the catalog knows by another id (aws.bedrock is aws)',
      usage: { inputTokens: 1000, outputTokens: 10, inputIncludesCache: true },
      model: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
      provider: 'aws.bedrock',
      expected: {
        costUsd: catalog({ input_tokens: 1000, output_tokens: 10 }, 'anthropic.claude-3-5-sonnet-20240620-v1:0', 'aws'),
        source: 'catalog',
        pricedModel: expect.any(String) as unknown as string,
      },
    },
    {
      name: 'a provider the catalog does not know: the model is matched alone',
      usage: { inputTokens: 1000, outputTokens: 100, inputIncludesCache: true },
      model: 'gpt-4o',
      provider: 'my-gateway',
      expected: { costUsd: catalog({ input_tokens: 1000, output_tokens: 100 }, 'gpt-4o'), source: 'catalog', pricedModel: 'gpt-4o' },
    },
    {
      name: 'no provider: the model is matched alone',
      usage: { inputTokens: 2000, outputTokens: 0, inputIncludesCache: true },
      model: 'gpt-4o-mini',
      expected: { costUsd: catalog({ input_tokens: 2000, output_tokens: 0 }, 'gpt-4o-mini'), source: 'catalog', pricedModel: 'gpt-4o-mini' },
    },
    { name: 'an unknown model', usage: { inputTokens: 10, outputTokens: 10, inputIncludesCache: true }, model: 'no-such-model-9', expected: null },
    {
      name: 'usage the catalog refuses (more cache reads than input, inclusive)',
      usage: { inputTokens: 10, cacheReadTokens: 500, outputTokens: 1, inputIncludesCache: true },
      model: 'gpt-4o',
      provider: 'openai',
      expected: null,
    },
    { name: 'no model', usage: { inputTokens: 10, inputIncludesCache: true }, expected: null },
    { name: 'no tokens', usage: { inputIncludesCache: true }, model: 'gpt-4o', expected: null },
    {
      name: 'custom prices override the catalog (exact id, case-insensitive; cache read at its own price)',
      usage: { inputTokens: 1000, cacheReadTokens: 400, outputTokens: 100, inputIncludesCache: true },
      model: 'GPT-4o',
      provider: 'openai',
      prices: custom,
      expected: { costUsd: (600 * 1 + 400 * 0.5 + 100 * 2) / 1e6, source: 'custom', pricedModel: 'gpt-4o' },
    },
    {
      name: 'a custom pattern; cache write at its price, cache read at the input price',
      usage: { inputTokens: 100, cacheWriteTokens: 50, cacheReadTokens: 10, outputTokens: 7, inputIncludesCache: false },
      model: 'acme-large-2',
      prices: custom,
      expected: { costUsd: (100 * 10 + 50 * 12.5 + 10 * 10 + 7 * 20) / 1e6, source: 'custom', pricedModel: '^acme-' },
    },
    {
      name: 'a model the custom prices do not name falls to the catalog',
      usage: { inputTokens: 1000, outputTokens: 100, inputIncludesCache: true },
      model: 'gpt-4o-mini',
      prices: custom,
      expected: { costUsd: catalog({ input_tokens: 1000, output_tokens: 100 }, 'gpt-4o-mini'), source: 'catalog', pricedModel: 'gpt-4o-mini' },
    },
  ];

  it.each(cases)('$name', ({ usage, model, provider, prices, expected }) => {
    const price = priceModelCall(usage, model, provider, prices ?? [], AT);
    expect(price).toEqual(expected);
    if (price) expect(price.costUsd).toBeGreaterThan(0);
    // The same call again is served from the lookup cache, with the same answer.
    expect(priceModelCall(usage, model, provider, prices ?? [], AT)).toEqual(price);
  });
});

describe('spanCost', () => {
  const usage: ModelUsage = { inputTokens: 1000, outputTokens: 100, inputIncludesCache: true, model: 'gpt-4o', provider: 'openai' };
  const base = { type: 'LLM_CALL' as const, costUsd: null, usage, startedAt: AT, metadata: null };
  const priced = catalog({ input_tokens: 1000, output_tokens: 100 }, 'gpt-4o', 'openai');

  it.each([
    { name: 'the client cost wins, even 0', span: { ...base, costUsd: 0 }, expected: { costUsd: 0, costSource: 'client', pricedModel: null, unpriced: false, counted: true } },
    { name: 'a model call is priced', span: base, expected: { costUsd: priced, costSource: 'catalog', pricedModel: 'gpt-4o', unpriced: false, counted: true } },
    {
      name: 'an unknown model stays without a cost (never 0) and is counted unpriced',
      span: { ...base, usage: { ...usage, model: 'mystery-1' } },
      expected: { costUsd: null, costSource: null, pricedModel: null, unpriced: true, counted: true },
    },
    { name: 'not a model call', span: { ...base, type: 'TOOL_CALL' as const }, expected: { costUsd: null, costSource: null, pricedModel: null, unpriced: false, counted: true } },
    { name: 'a model call without usage', span: { ...base, usage: null }, expected: { costUsd: null, costSource: null, pricedModel: null, unpriced: false, counted: true } },
    {
      name: 'a double report is priced but not counted, nor counted unpriced',
      span: { ...base, usage: { ...usage, model: 'mystery-1' }, metadata: { duplicateOf: 'abc' } },
      expected: { costUsd: null, costSource: null, pricedModel: null, unpriced: false, counted: false },
    },
  ])('$name', ({ span, expected }) => {
    expect(spanCost(span, [])).toEqual(expected);
  });
});

describe('parseCustomPrices', () => {
  it.each([
    ['not JSON', '{', /MODEL_PRICES_FILE is not valid JSON/],
    ['not an array', '{}', /must hold a JSON array/],
    ['neither model nor pattern', '[{"inputPerMillion":1,"outputPerMillion":1}]', /MODEL_PRICES_FILE\[0\] needs either "model"/],
    ['both', '[{"model":"a","pattern":"b","inputPerMillion":1,"outputPerMillion":1}]', /needs either "model".*not both/],
    ['a negative price', '[{"model":"a","inputPerMillion":-1,"outputPerMillion":1}]', /MODEL_PRICES_FILE\[0\]\.inputPerMillion must be a non-negative number/],
    ['a missing output price', '[{"model":"a","inputPerMillion":1}]', /outputPerMillion must be a non-negative number/],
    ['a price as a string', '[{"model":"a","inputPerMillion":"1","outputPerMillion":1}]', /inputPerMillion must be/],
    ['a bad pattern', '[{"pattern":"(","inputPerMillion":1,"outputPerMillion":1}]', /pattern is not a valid regular expression/],
    ['an unknown field', '[{"model":"a","inputPerMillion":1,"outputPerMillion":1,"input":3}]', /unknown field "input"/],
  ])('refuses %s, naming the entry and field', (_name, text, message) => {
    expect(() => parseCustomPrices(text)).toThrow(message);
  });

  it('defaults the cache prices to the input price', () => {
    expect(parseCustomPrices('[{"model":"M-1","inputPerMillion":3,"outputPerMillion":15}]')).toEqual([
      { label: 'M-1', model: 'm-1', inputPerMillion: 3, outputPerMillion: 15, cacheReadPerMillion: 3, cacheWritePerMillion: 3 },
    ]);
  });
});

describe('the fixed-rate shortcut', () => {
  // Every provider the catalog may hold under these ids (unknown ones are skipped).
  const PROVIDERS = ['openai', 'anthropic', 'google', 'aws', 'azure', 'mistral', 'groq', 'deepseek', 'cohere', 'x-ai', 'perplexity', 'openrouter', 'together', 'fireworks', 'novita', 'huggingface', 'cerebras', 'ovhcloud', 'moonshotai'];
  const models = PROVIDERS.flatMap((id) => {
    const provider = findProvider({ providerId: id });
    return provider && provider.id === id ? provider.models.map((model) => ({ provider, model })) : [];
  });

  it("gives the catalog's own price, to the last bit, for every fixed-rate model and any usage", () => {
    let compared = 0;
    let refused = 0;
    const priced = new Set<string>();
    let seed = 7;
    const random = (max: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % max;
    };
    for (const { provider, model } of models) {
      const prices = Array.isArray(model.prices) ? [] : Object.entries(model.prices).filter(([, v]) => v !== undefined);
      if (Array.isArray(model.prices) || prices.some(([k, v]) => typeof v !== 'number' || k.startsWith('requests'))) continue;
      const rates = {
        rates: prices.filter(([k]) => ['input_mtok', 'output_mtok', 'cache_read_mtok', 'cache_write_mtok'].includes(k)) as Array<[never, number]>,
        units: prices.length,
      };
      const single = { ...provider, fallback_model_providers: undefined, models: [{ ...model, match: { equals: 'm' } }] };
      for (let i = 0; i < 40; i++) {
        const input = random(200_000);
        const usage = {
          input_tokens: input,
          output_tokens: random(20_000),
          cache_read_tokens: i % 4 === 0 ? 0 : random(input + (i % 5 === 0 ? 1000 : 1)),
          cache_write_tokens: i % 3 === 0 ? 0 : random(Math.max(1, input / 3)),
        };
        let expected: number | undefined;
        try {
          expected = calcPrice(usage, 'm', { provider: single })?.total_price;
        } catch {
          expected = undefined;
        }
        expect(tokenPrice(usage, rates), `${provider.id} ${model.id} ${JSON.stringify(usage)}`).toBe(expected);
        compared++;
        if (expected === undefined) refused++;
        priced.add(`${provider.id}/${model.id}`);
      }
    }
    expect(compared).toBeGreaterThan(1000);
    // Usage the catalog refuses (more cache reads than input) was among them, and refused alike.
    expect(refused).toBeGreaterThan(10);
    expect(priced.size).toBeGreaterThan(100);
    // Among them models with rates for usage never reported (web searches, 1-hour cache writes).
    expect([...priced]).toEqual(expect.arrayContaining(['openai/gpt-4o', 'anthropic/claude-sonnet-4-0']));
  });
});
