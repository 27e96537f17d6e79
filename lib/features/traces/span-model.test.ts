import { describe, expect, it } from 'vitest';
import { costSourceNote, spanModelOf } from './span-model';

describe('spanModelOf', () => {
  it('takes the response model over the request model, then the other conventions, then the priced model', () => {
    expect(spanModelOf({ pricedModel: 'gpt-4o', metadata: { 'gen_ai.request.model': 'gpt-4o', 'gen_ai.response.model': 'gpt-4o-2024-08-06' } })).toBe('gpt-4o-2024-08-06');
    expect(spanModelOf({ pricedModel: null, metadata: { 'llm.model_name': 'claude-3-5-sonnet' } })).toBe('claude-3-5-sonnet');
    expect(spanModelOf({ pricedModel: null, metadata: { 'ai.model.id': 'gpt-4o-mini' } })).toBe('gpt-4o-mini');
    expect(spanModelOf({ pricedModel: null, metadata: { model: ' my-model ' } })).toBe('my-model');
    expect(spanModelOf({ pricedModel: 'gpt-4o', metadata: { model: '' } })).toBe('gpt-4o');
    expect(spanModelOf({ pricedModel: null, metadata: null })).toBeNull();
    expect(spanModelOf({ pricedModel: null, metadata: ['gpt-4o'] })).toBeNull();
  });

  it('says where an estimated cost came from, and nothing for a client-sent one', () => {
    expect(costSourceNote({ costSource: 'catalog', pricedModel: 'gpt-4o' })).toContain("genai-prices catalog's price for gpt-4o");
    expect(costSourceNote({ costSource: 'custom', pricedModel: 'ft:my-model' })).toContain('MODEL_PRICES_FILE');
    expect(costSourceNote({ costSource: 'client', pricedModel: null })).toBeNull();
    expect(costSourceNote({ costSource: null, pricedModel: null })).toBeNull();
  });
});
