import { describe, expect, it } from 'vitest';
import { SpanAttributes } from '@/lib/features/otlp/attributes';
import type { Attributes } from '@/lib/features/otlp/types';
import { spanTypeOf, toolNameFor } from './span-type';

const typeOf = (attributes: Attributes) => spanTypeOf(new SpanAttributes(attributes));

describe('spanTypeOf', () => {
  it('takes an explicit crossroads.span.type first, in any case', () => {
    expect(typeOf({ 'crossroads.span.type': 'MEMORY_OP', 'openinference.span.kind': 'LLM' })).toBe('MEMORY_OP');
    expect(typeOf({ 'crossroads.span.type': 'agent', 'gen_ai.operation.name': 'chat' })).toBe('AGENT');
  });

  it('falls through an unknown explicit type to the next convention', () => {
    expect(typeOf({ 'crossroads.span.type': 'ROBOT', 'gen_ai.operation.name': 'chat' })).toBe('LLM_CALL');
  });

  it.each([
    ['LLM', 'LLM_CALL'],
    ['EMBEDDING', 'LLM_CALL'],
    ['TOOL', 'TOOL_CALL'],
    ['RETRIEVER', 'MEMORY_OP'],
    ['RERANKER', 'MEMORY_OP'],
    ['AGENT', 'AGENT'],
    ['CHAIN', 'CHAIN'],
    ['PROMPT', 'CHAIN'],
  ])('maps OpenInference %s to %s', (kind, type) => {
    expect(typeOf({ 'openinference.span.kind': kind })).toBe(type);
  });

  it('ranks OpenInference above GenAI, GenAI above the Vercel AI SDK', () => {
    expect(typeOf({ 'openinference.span.kind': 'TOOL', 'gen_ai.operation.name': 'chat' })).toBe('TOOL_CALL');
    expect(typeOf({ 'gen_ai.operation.name': 'execute_tool', 'ai.operationId': 'ai.generateText.doGenerate' })).toBe('TOOL_CALL');
  });

  it("lets gen_ai.operation.name win over OpenLLMetry's span kind where they disagree", () => {
    // OpenLLMetry's LangChain instrumentation marks a tool run as a task, an agent executor as a workflow.
    expect(typeOf({ 'traceloop.span.kind': 'task', 'gen_ai.operation.name': 'execute_tool' })).toBe('TOOL_CALL');
    expect(typeOf({ 'traceloop.span.kind': 'workflow', 'gen_ai.operation.name': 'invoke_agent' })).toBe('AGENT');
    // An operation GenAI does not know leaves the span kind to decide.
    expect(typeOf({ 'traceloop.span.kind': 'task', 'gen_ai.operation.name': 'custom_step' })).toBe('CHAIN');
    expect(typeOf({ 'traceloop.span.kind': 'tool' })).toBe('TOOL_CALL');
  });

  it('lets an OpenInference kind it does not know (GUARDRAIL) fall through', () => {
    expect(typeOf({ 'openinference.span.kind': 'GUARDRAIL', 'llm.model_name': 'gpt-4o' })).toBe('LLM_CALL');
    expect(typeOf({ 'openinference.span.kind': 'EVALUATOR' })).toBe('CUSTOM');
  });

  it.each([
    ['chat', 'LLM_CALL'],
    ['generate_content', 'LLM_CALL'],
    ['text_completion', 'LLM_CALL'],
    ['embeddings', 'LLM_CALL'],
    ['execute_tool', 'TOOL_CALL'],
    ['retrieval', 'MEMORY_OP'],
    ['search_memory', 'MEMORY_OP'],
    ['create_memory', 'MEMORY_OP'],
    ['invoke_agent', 'AGENT'],
    ['create_agent', 'AGENT'],
    ['plan', 'AGENT'],
    ['invoke_workflow', 'CHAIN'],
  ])('maps gen_ai.operation.name %s to %s', (operation, type) => {
    expect(typeOf({ 'gen_ai.operation.name': operation })).toBe(type);
  });

  it.each([
    ['ai.generateText.doGenerate', 'LLM_CALL'],
    ['ai.streamText.doStream', 'LLM_CALL'],
    ['ai.embedMany.doEmbed', 'LLM_CALL'],
    ['ai.toolCall', 'TOOL_CALL'],
    ['ai.generateText', 'CHAIN'],
    ['ai.streamText', 'CHAIN'],
    ['ai.generateObject', 'CHAIN'],
  ])('maps the Vercel AI SDK operation %s to %s', (operation, type) => {
    // Vercel's model calls carry gen_ai.request.model too: the operation decides first.
    expect(typeOf({ 'ai.operationId': operation, 'gen_ai.request.model': 'mock' })).toBe(type);
  });

  it('makes a span with gen_ai.tool.name a tool call, before any model attribute', () => {
    expect(typeOf({ 'gen_ai.tool.name': 'get_weather', 'gen_ai.request.model': 'gpt-4' })).toBe('TOOL_CALL');
  });

  it.each(['gen_ai.request.model', 'gen_ai.response.model', 'llm.model_name'])('makes a span with %s an LLM call', (key) => {
    expect(typeOf({ [key]: 'gpt-4' })).toBe('LLM_CALL');
  });

  it('leaves anything else CUSTOM', () => {
    expect(typeOf({})).toBe('CUSTOM');
    expect(typeOf({ 'gen_ai.operation.name': 'dance', 'http.method': 'GET' })).toBe('CUSTOM');
  });
});

describe('spanTypeOf: Langfuse, OpenLLMetry, Mastra', () => {
  it.each([
    ['generation', 'LLM_CALL'],
    ['embedding', 'LLM_CALL'],
    ['tool', 'TOOL_CALL'],
    ['agent', 'AGENT'],
    ['chain', 'CHAIN'],
    ['retriever', 'MEMORY_OP'],
  ])('maps Langfuse %s to %s', (kind, type) => {
    expect(typeOf({ 'langfuse.observation.type': kind })).toBe(type);
  });

  it("lets Langfuse's span, event, evaluator and guardrail fall through to the other conventions", () => {
    expect(typeOf({ 'langfuse.observation.type': 'span', 'gen_ai.operation.name': 'chat' })).toBe('LLM_CALL');
    expect(typeOf({ 'langfuse.observation.type': 'event' })).toBe('CUSTOM');
    expect(typeOf({ 'langfuse.observation.type': 'span', 'langfuse.observation.model.name': 'gpt-4o' })).toBe('LLM_CALL');
  });

  it.each([
    ['workflow', 'CHAIN'],
    ['task', 'CHAIN'],
    ['agent', 'AGENT'],
    ['tool', 'TOOL_CALL'],
  ])('maps OpenLLMetry traceloop.span.kind %s to %s', (kind, type) => {
    expect(typeOf({ 'traceloop.span.kind': kind, 'gen_ai.request.model': 'gpt-4o' })).toBe(type);
  });

  it('reads gen_ai.operation.name workflow as a chain, not a model call', () => {
    expect(typeOf({ 'gen_ai.operation.name': 'workflow', 'gen_ai.request.model': 'gpt-4o' })).toBe('CHAIN');
  });

  it.each([
    ['agent_run', 'invoke_agent', 'AGENT'],
    ['model_generation', 'model_generation', 'AGENT'],
    // Older Mastra: the generation is the model call itself.
    ['model_generation', 'chat', 'LLM_CALL'],
    ['model_step', 'agent_step', 'LLM_CALL'],
    ['model_inference', 'chat', 'LLM_CALL'],
    ['model_chunk', 'model_chunk', 'CUSTOM'],
    ['tool_call', 'execute_tool', 'TOOL_CALL'],
    ['workflow_step', 'workflow_step', 'CHAIN'],
  ])('maps Mastra %s (operation %s) to %s', (mastra, operation, type) => {
    expect(typeOf({ 'mastra.span.type': mastra, 'gen_ai.operation.name': operation })).toBe(type);
  });
});

describe('toolNameFor', () => {
  it('names a span that only names the operation after its tool', () => {
    expect(toolNameFor('execute_tool', new SpanAttributes({ 'gen_ai.tool.name': 'get_weather' }))).toBe('get_weather');
    expect(toolNameFor('ai.toolCall', new SpanAttributes({ 'ai.toolCall.name': 'search' }))).toBe('search');
    expect(toolNameFor('', new SpanAttributes({ 'tool.name': 'lookup' }))).toBe('lookup');
  });

  it('keeps a span name that says more than the operation', () => {
    expect(toolNameFor('execute_tool get_weather', new SpanAttributes({ 'gen_ai.tool.name': 'get_weather' }))).toBeUndefined();
    expect(toolNameFor('weather-lookup', new SpanAttributes({ 'tool.name': 'get_weather' }))).toBeUndefined();
    // OpenLLMetry names a tool span `<tool>.tool`: shown as the tool; another name is kept.
    expect(toolNameFor('lookup_city.tool', new SpanAttributes({ 'traceloop.entity.name': 'lookup_city' }))).toBe('lookup_city');
    expect(toolNameFor('city lookup', new SpanAttributes({ 'traceloop.entity.name': 'lookup_city' }))).toBeUndefined();
  });

  it("names OpenLLMetry's `execute_tool <class>` spans for the tool: gen_ai.tool.name, else the entity name", () => {
    const langchain = { 'gen_ai.operation.name': 'execute_tool', 'traceloop.span.kind': 'task', 'traceloop.entity.name': 'DynamicStructuredTool' };
    expect(toolNameFor('execute_tool DynamicStructuredTool', new SpanAttributes(langchain))).toBe('DynamicStructuredTool');
    expect(toolNameFor('execute_tool DynamicStructuredTool', new SpanAttributes({ ...langchain, 'gen_ai.tool.name': 'get_weather' }))).toBe('get_weather');
  });
});
