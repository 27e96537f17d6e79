// Records the OTLP/JSON fixtures of test/fixtures/otlp from the real SDKs (no network):
//   npx tsx --conditions=react-server scripts/record-otlp-fixtures.ts [fixture names, e.g. mastra]
// Each fixture is an ExportTraceServiceRequest body as JsonTraceSerializer writes it
// (what @opentelemetry/exporter-trace-otlp-http sends), pretty-printed. Ids and times
// change on every run: tests find spans by name, never by id or time. The frameworks'
// own pipelines are used as they ship (OpenLLMetry's span processor, Langfuse's
// LangfuseSpanProcessor, Mastra's OtelExporter), each given an in-memory exporter and
// a fake model, or a real provider client against a loopback OpenAI-compatible server.
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import {
  defaultProcessInput,
  defaultProcessOutput,
  getInputAttributes,
  getLLMAttributes,
  getRetrieverAttributes,
  getToolAttributes,
  setSession,
  setTags,
  traceAgent,
  traceTool,
  withSpan,
} from '@arizeai/openinference-core';
import { Mastra } from '@mastra/core';
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { Observability } from '@mastra/observability';
import { OtelExporter } from '@mastra/otel-exporter';
import { LangfuseSpanProcessor } from '@langfuse/otel';
import { propagateAttributes, setActiveTraceIO, setLangfuseTracerProvider, startActiveObservation, startObservation } from '@langfuse/tracing';
import { context, propagation, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import type { ExportResult } from '@opentelemetry/core';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import OpenAI from 'openai';
import { z } from 'zod';

const OUT = path.resolve(import.meta.dirname, '../test/fixtures/otlp');

// One provider for the whole run (NodeTracerProvider.register installs the async
// context manager that parents spans across awaits); its exporter is drained per fixture.
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({
  resource: resourceFromAttributes({
    'service.name': 'fixture-agent',
    'service.version': '1.2.3',
    'deployment.environment.name': 'test',
  }),
  // OTel JS 2.x: span processors are given to the constructor.
  spanProcessors: [new SimpleSpanProcessor(exporter)],
});
provider.register();

const RESOURCE = { 'service.name': 'fixture-agent', 'service.version': '1.2.3', 'deployment.environment.name': 'test' };

function save(file: string, from: InMemorySpanExporter = exporter): void {
  const spans = from.getFinishedSpans();
  from.reset();
  const body = JsonTraceSerializer.serializeRequest(spans);
  if (!body) throw new Error(`${file}: the serializer returned nothing`);
  const json = JSON.parse(new TextDecoder().decode(body));
  writeFileSync(path.join(OUT, file), `${JSON.stringify(json, null, 2)}\n`);
  console.log(`${file}: ${spans.length} spans`);
}

/** Vercel AI SDK 6: generateText, a mock model that calls one of two tools, then answers. */
async function recordVercelAi(): Promise<void> {
  const model = new MockLanguageModelV3({
    provider: 'mock-provider',
    modelId: 'mock-model-1',
    doGenerate: [
      {
        content: [
          { type: 'text', text: 'Let me look up the weather in Paris.' },
          { type: 'tool-call', toolCallId: 'call-1', toolName: 'get_weather', input: '{"city":"Paris"}' },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage: usageWithCache(120, 40, 18),
        warnings: [],
      },
      {
        content: [{ type: 'text', text: 'It is sunny and 21°C in Paris.' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: usageWithCache(160, 120, 12),
        warnings: [],
      },
    ],
  });
  await generateText({
    model,
    system: 'You are a weather assistant.',
    prompt: 'What is the weather in Paris?',
    tools: {
      get_weather: tool({
        description: 'Current weather for a city',
        inputSchema: z.object({ city: z.string() }),
        execute: async ({ city }) => ({ city, condition: 'sunny', celsius: 21 }),
      }),
      get_time: tool({
        description: 'Local time in a city',
        inputSchema: z.object({ city: z.string() }),
        execute: async ({ city }) => ({ city, time: '14:05' }),
      }),
    },
    stopWhen: stepCountIs(3),
    experimental_telemetry: {
      isEnabled: true,
      functionId: 'weather-agent',
      metadata: { userId: 'user-7' },
      tracer: provider.getTracer('ai'),
    },
  });
  save('vercel-ai.json');
}

/** OpenInference: an agent whose LLM calls a tool (llm.output_messages tool calls, llm.tools), a retriever, a failing tool. */
async function recordOpenInference(): Promise<void> {
  const tracer = provider.getTracer('openinference-fixture', '0.1.0');
  const weatherTool = {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current weather for a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  };
  const docsTool = {
    type: 'function',
    function: {
      name: 'search_docs',
      description: 'Search the travel guide',
      parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    },
  };

  const chat = withSpan(
    async (question: string) => ({ role: 'assistant', tool: 'get_weather', question }),
    {
      name: 'ChatCompletion',
      kind: 'LLM',
      tracer,
      processInput: (question) => ({
        ...defaultProcessInput(question),
        ...getLLMAttributes({
          provider: 'openai',
          modelName: 'gpt-4o-mini',
          invocationParameters: { temperature: 0 },
          inputMessages: [
            { role: 'system', content: 'You are a travel assistant.' },
            { role: 'user', content: question },
          ],
          tools: [{ jsonSchema: weatherTool }, { jsonSchema: docsTool }],
        }),
      }),
      processOutput: (result) => ({
        ...defaultProcessOutput(result),
        ...getLLMAttributes({
          outputMessages: [
            {
              role: 'assistant',
              content: 'I will check the weather first.',
              toolCalls: [{ id: 'call_oi_1', function: { name: 'get_weather', arguments: { city: 'Paris' } } }],
            },
          ],
          tokenCount: { prompt: 42, completion: 12, total: 54, promptDetails: { cacheRead: 16 } },
        }),
        'llm.cost.total': 0.00021,
      }),
    },
  );
  const getWeather = traceTool(async (args: { city: string }) => ({ city: args.city, condition: 'sunny' }), {
    name: 'get_weather',
    tracer,
    attributes: getToolAttributes({
      name: 'get_weather',
      description: 'Current weather for a city',
      parameters: weatherTool.function.parameters,
    }),
  });
  const searchDocs = withSpan(
    async (query: string) => [{ content: `Paris guide: ${query}`, id: 'doc-1', score: 0.92 }],
    {
      name: 'search-docs',
      kind: 'RETRIEVER',
      tracer,
      processInput: (query) => getInputAttributes(query),
      processOutput: (docs) => getRetrieverAttributes({ documents: docs }),
    },
  );
  const bookTable = traceTool(
    async (place: string): Promise<string> => {
      throw new Error(`No table available at ${place}`);
    },
    { name: 'book_table', tracer },
  );
  const agent = traceAgent(
    async (question: string) => {
      await chat(question);
      const weather = await getWeather({ city: 'Paris' });
      await searchDocs('museums');
      await bookTable('Le Cinq').catch(() => undefined);
      return { answer: `It is ${weather.condition} in Paris.` };
    },
    { name: 'travel-agent', tracer },
  );
  const ctx = setTags(setSession(context.active(), { sessionId: 'session-oi-1' }), ['fixture', 'openinference']);
  await context.with(ctx, () => agent('What is the weather in Paris?'));
  save('openinference.json');
}

/** Runs fn inside a span made with the plain API, parented on the active span. */
async function inSpan<T>(tracer: Tracer, name: string, attributes: Record<string, string | number | string[]>, fn: (span: ReturnType<Tracer['startSpan']>) => Promise<T> | T): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn(span);
    } finally {
      span.end();
    }
  });
}

/** GenAI semantic conventions (content on span attributes), made with the plain OTel API. */
async function recordGenAi(): Promise<void> {
  const tracer = trace.getTracer('genai-fixture', '0.2.0');
  const tools = [
    {
      type: 'function',
      name: 'get_weather',
      description: 'Get the weather in a given location',
      parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
    },
    {
      type: 'function',
      name: 'get_forecast',
      description: 'Five-day forecast for a location',
      parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
    },
  ];
  await inSpan(
    tracer,
    'invoke_agent Forecaster',
    {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'Forecaster',
      'gen_ai.provider.name': 'openai',
      'gen_ai.conversation.id': 'conv-42',
      // The wrapper repeats its children's usage: it must not be counted twice.
      'gen_ai.usage.input_tokens': 144,
      'gen_ai.usage.output_tokens': 69,
    },
    async () => {
      await inSpan(
        tracer,
        'chat gpt-4',
        {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'gpt-4',
          'gen_ai.response.model': 'gpt-4-0613',
          'gen_ai.usage.input_tokens': 47,
          'gen_ai.usage.output_tokens': 17,
          'gen_ai.usage.cost': 0.0019,
          'gen_ai.response.finish_reasons': ['tool_calls'],
          'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Weather in Paris?' }] }]),
          'gen_ai.output.messages': JSON.stringify([
            {
              role: 'assistant',
              parts: [
                { type: 'text', content: 'Checking the current weather.' },
                { type: 'tool_call', id: 'call_VSPy', name: 'get_weather', arguments: { location: 'Paris' } },
              ],
              finish_reason: 'tool_call',
            },
          ]),
          'gen_ai.tool.definitions': JSON.stringify(tools),
        },
        () => undefined,
      );
      await inSpan(
        tracer,
        'execute_tool',
        {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': 'get_weather',
          'gen_ai.tool.call.id': 'call_VSPy',
          'gen_ai.tool.type': 'function',
          'gen_ai.tool.call.arguments': JSON.stringify({ location: 'Paris' }),
          'gen_ai.tool.call.result': JSON.stringify({ condition: 'rainy', fahrenheit: 57 }),
        },
        (span) => {
          span.addEvent('retry attempt', { attempt: 2 });
        },
      );
      await inSpan(
        tracer,
        'chat gpt-4',
        {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'gpt-4',
          'gen_ai.usage.input_tokens': 97,
          'gen_ai.usage.cache_read.input_tokens': 64,
          'gen_ai.usage.output_tokens': 52,
          'gen_ai.input.messages': JSON.stringify([
            { role: 'user', parts: [{ type: 'text', content: 'Weather in Paris?' }] },
            { role: 'assistant', parts: [{ type: 'tool_call', id: 'call_VSPy', name: 'get_weather', arguments: { location: 'Paris' } }] },
            { role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_VSPy', response: 'rainy, 57°F' }] },
          ]),
          'gen_ai.output.messages': JSON.stringify([
            { role: 'assistant', parts: [{ type: 'text', content: 'It is rainy in Paris, 57°F.' }], finish_reason: 'stop' },
          ]),
        },
        (span) => {
          span.addEvent('model_fallback', { from: 'gpt-4o', to: 'gpt-4' });
        },
      );
      await inSpan(tracer, 'search_memory notes', { 'gen_ai.operation.name': 'search_memory' }, () => undefined);
      await inSpan(tracer, 'execute_tool send_email', { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'send_email' }, (span) => {
        const error = new TypeError('SMTP server refused the connection');
        span.recordException(error);
        span.setStatus({ code: SpanStatusCode.ERROR });
      });
    },
  );
  save('genai.json');
}

/** Crossroads' own attributes: an explicit span type, session, tags, decisions as events. */
async function recordCrossroads(): Promise<void> {
  const tracer = trace.getTracer('crossroads-fixture');
  await inSpan(
    tracer,
    'support-run',
    { 'crossroads.session.id': 'session-cx-9', 'crossroads.tags': ['support', 'priority'] },
    async () => {
      await inSpan(tracer, 'router', { 'crossroads.span.type': 'AGENT', 'gen_ai.operation.name': 'chat' }, (span) => {
        // Every attribute as JSON text.
        span.addEvent('crossroads.decision', {
          'crossroads.decision.type': 'ROUTING',
          'crossroads.decision.chosen': JSON.stringify({ queue: 'billing' }),
          'crossroads.decision.alternatives': JSON.stringify([{ queue: 'tech' }, { queue: 'sales' }]),
          'crossroads.decision.reasoning': 'The customer asks about an invoice.',
          'crossroads.decision.context': JSON.stringify({ ticket: 981, language: 'en' }),
          'crossroads.decision.cost_usd': 0.0004,
          'crossroads.decision.duration_ms': 12.5,
        });
        // Plain strings and a string-array attribute, taken as they are.
        span.addEvent('crossroads.decision', {
          'crossroads.decision.type': 'ESCALATION',
          'crossroads.decision.chosen': 'human agent',
          'crossroads.decision.alternatives': ['bot', 'email'],
          'crossroads.decision.context': 'after two failed answers',
        });
        // A type outside the seven: CUSTOM, the raw type kept in the context.
        span.addEvent('crossroads.decision', {
          'crossroads.decision.type': 'vibes',
          'crossroads.decision.chosen': 'yes',
          'crossroads.decision.alternatives': 'no',
        });
        span.addEvent('cache warmed', { entries: 3 });
      });
    },
  );
  save('crossroads.json');
}

/**
 * Langfuse (@langfuse/tracing observations through its LangfuseSpanProcessor): an agent
 * whose generation calls a tool (usage with cache reads, cost details), the tool, a tool
 * at level ERROR, an event; trace name, user, session, tags, metadata, input and output.
 */
async function recordLangfuse(): Promise<void> {
  const memory = new InMemorySpanExporter();
  const langfuse = new NodeTracerProvider({
    resource: resourceFromAttributes(RESOURCE),
    spanProcessors: [
      new LangfuseSpanProcessor({ exporter: memory, publicKey: 'pk-lf-fixture', secretKey: 'sk-lf-fixture', baseUrl: 'http://127.0.0.1:9', exportMode: 'immediate' }),
    ],
  });
  // Langfuse's own tracer provider: no global registration needed.
  setLangfuseTracerProvider(langfuse);
  const tools = [
    { type: 'function', function: { name: 'lookup_order', description: 'Find an order by id' } },
    { type: 'function', function: { name: 'issue_refund', description: 'Refund an order' } },
  ];
  await propagateAttributes(
    { userId: 'user-lf-1', sessionId: 'session-lf-1', tags: ['fixture', 'langfuse'], metadata: { plan: 'pro' }, traceName: 'refund-request' },
    () =>
      startActiveObservation(
        'support-agent',
        async (agent) => {
          agent.update({ input: { question: 'Where is order 7?' } });
          setActiveTraceIO({ input: { question: 'Where is order 7?' } });
          await startActiveObservation(
            'chat-completion',
            async (generation) => {
              generation.update({
                model: 'gpt-4o',
                modelParameters: { temperature: 0 },
                input: { messages: [{ role: 'user', content: 'Where is order 7?' }], tools },
                output: {
                  role: 'assistant',
                  content: 'Let me look that order up.',
                  tool_calls: [{ id: 'call_lf_1', type: 'function', function: { name: 'lookup_order', arguments: '{"id":7}' } }],
                },
                usageDetails: { input: 70, input_cached_tokens: 30, output: 20, total: 120 },
                costDetails: { input: 0.0002, output: 0.0004, total: 0.0006 },
              });
            },
            { asType: 'generation' },
          );
          await startActiveObservation(
            'lookup_order',
            async (tool) => {
              tool.update({ input: { id: 7 }, output: { id: 7, status: 'shipped' } });
            },
            { asType: 'tool' },
          );
          await startActiveObservation(
            'issue_refund',
            async (tool) => {
              tool.update({ input: { id: 7 }, level: 'ERROR', statusMessage: 'Refund service unavailable' });
            },
            { asType: 'tool' },
          );
          startObservation('user-feedback', { input: { rating: 'up' } }, { asType: 'event' });
          agent.update({ output: { answer: 'Order 7 has shipped.' } });
          setActiveTraceIO({ output: { answer: 'Order 7 has shipped.' } });
        },
        { asType: 'agent' },
      ),
  );
  await langfuse.forceFlush();
  save('langfuse.json', memory);
  await langfuse.shutdown();
  setLangfuseTracerProvider(null);
}

/** Collects what a framework exports; unlike InMemorySpanExporter, keeps it when the framework shuts the exporter down. */
class KeepingExporter implements SpanExporter {
  readonly memory = new InMemorySpanExporter();
  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.memory.export(spans, done);
  }
  async shutdown(): Promise<void> {}
  async forceFlush(): Promise<void> {}
}

function usageWithCache(input: number, cacheRead: number, output: number) {
  return {
    inputTokens: { total: input, noCache: input - cacheRead, cacheRead, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

/** The weather run's two model answers: a tool call (no text, as OpenAI often answers), then the reply. */
function weatherModel(provider: string, modelId: string) {
  return new MockLanguageModelV3({
    provider,
    modelId,
    doGenerate: [
      {
        content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'getWeather', input: '{"city":"Paris"}' }],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage: usageWithCache(120, 20, 18),
        warnings: [],
      },
      {
        content: [{ type: 'text', text: 'It is sunny in Paris.' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: usageWithCache(160, 20, 12),
        warnings: [],
      },
    ],
  });
}

/**
 * Mastra (an Agent with two tools and a fake model; @mastra/observability with
 * @mastra/otel-exporter's OtelExporter): agent run, model generation, model steps with
 * their prompt and tool calls, the model inferences with usage, the tool call.
 */
async function recordMastra(): Promise<void> {
  const exported = new KeepingExporter();
  const getWeather = createTool({
    id: 'getWeather',
    description: 'Current weather for a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => ({ city, condition: 'sunny' }),
  });
  const getTime = createTool({
    id: 'getTime',
    description: 'Local time in a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => ({ city, time: '14:05' }),
  });
  const agent = new Agent({
    id: 'weather-agent',
    name: 'Weather Agent',
    instructions: 'You are a weather assistant.',
    model: weatherModel('openai.chat', 'gpt-4o-mini'),
    tools: { getWeather, getTime },
  });
  const mastra = new Mastra({
    agents: { agent },
    logger: false,
    observability: new Observability({
      configs: {
        otel: {
          serviceName: RESOURCE['service.name'],
          exporters: [
            new OtelExporter({
              exporter: exported,
              // Required by the exporter, never dialled: the exporter above replaces it.
              provider: { custom: { endpoint: 'http://127.0.0.1:9/v1/traces', protocol: 'http/json' } },
              resourceAttributes: { 'service.version': RESOURCE['service.version'], 'deployment.environment.name': 'test' },
            }),
          ],
        },
      },
    }),
  });
  await mastra.getAgent('agent').generate('What is the weather in Paris?', {
    tracingOptions: { metadata: { userId: 'user-ma-1', sessionId: 'session-ma-1' } },
  });
  await mastra.shutdown();
  save('mastra.json', exported.memory);
}

/** What OpenLLMetry exports, once initialised for the process (it can be initialised only once). */
const traceloopMemory = new InMemorySpanExporter();
let traceloopModule: Promise<typeof import('@traceloop/node-server-sdk')> | undefined;

/**
 * @traceloop/node-server-sdk initialised as documented, its span processor given an
 * in-memory exporter, with its openai and LangChain instrumentations on (both, as an app
 * using LangChain's ChatOpenAI gets them).
 */
function startTraceloop(): Promise<typeof import('@traceloop/node-server-sdk')> {
  traceloopModule ??= (async () => {
    // Traceloop registers its own NodeSDK globally; the resource comes from the environment
    // (its other detectors would add host and process attributes that change per machine).
    process.env.OTEL_NODE_RESOURCE_DETECTORS = 'env';
    process.env.OTEL_RESOURCE_ATTRIBUTES = `service.version=${RESOURCE['service.version']},deployment.environment.name=test`;
    const traceloop = await import('@traceloop/node-server-sdk');
    traceloop.initialize({
      appName: RESOURCE['service.name'],
      exporter: traceloopMemory,
      // One export per span as it ends, as its docs advise for local runs.
      disableBatch: true,
      silenceInitializationMessage: true,
      instrumentModules: { openAI: OpenAI, langchain: true },
      traceloopSyncEnabled: false,
      baseUrl: 'http://127.0.0.1:9',
    });
    return traceloop;
  })();
  return traceloopModule;
}

/**
 * OpenLLMetry: a workflow, an agent, a tool and a task made with its decorators, and the
 * AI SDK's generateText (fake model) inside, which its processor rewrites to GenAI
 * attributes; session and user as association properties.
 */
async function recordTraceloop(): Promise<void> {
  const traceloop = await startTraceloop();
  const memory = traceloopMemory;
  await traceloop.withAssociationProperties({ session_id: 'session-tl-1', user_id: 'user-tl-1' }, () =>
    traceloop.withWorkflow({ name: 'trip_planner' }, async () =>
      traceloop.withAgent({ name: 'weather_agent' }, async () => {
        await traceloop.withTool({ name: 'lookup_city' }, async ({ query }: { query: string }) => ({ city: 'Paris', query }), { query: 'paris' });
        const { text } = await generateText({
          model: weatherModel('openai.chat', 'gpt-4o-mini'),
          prompt: 'What is the weather in Paris?',
          tools: {
            getWeather: tool({
              description: 'Current weather for a city',
              inputSchema: z.object({ city: z.string() }),
              execute: async ({ city }) => ({ city, condition: 'sunny' }),
            }),
            getTime: tool({
              description: 'Local time in a city',
              inputSchema: z.object({ city: z.string() }),
              execute: async ({ city }) => ({ city, time: '14:05' }),
            }),
          },
          stopWhen: stepCountIs(3),
          experimental_telemetry: { isEnabled: true },
        });
        return traceloop.withTask({ name: 'summarise' }, async (answer: string) => answer.toUpperCase(), text);
      }),
    ),
  );
  await traceloop.forceFlush();
  save('traceloop.json', memory);
}

/**
 * A loopback server speaking OpenAI's chat completions (non-streaming): the first turn
 * calls get_weather, the turn with its result answers; usage with cached prompt tokens.
 */
async function openAiCompatibleServer(): Promise<{ baseURL: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages: Array<{ role: string }> };
      const answering = request.messages.some((m) => m.role === 'tool');
      const message = answering
        ? { role: 'assistant', content: 'It is sunny in Paris.' }
        : {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_lc_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
          };
      const usage = answering
        ? { prompt_tokens: 90, completion_tokens: 9, total_tokens: 99, prompt_tokens_details: { cached_tokens: 64 } }
        : { prompt_tokens: 60, completion_tokens: 15, total_tokens: 75, prompt_tokens_details: { cached_tokens: 0 } };
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: answering ? 'chatcmpl-lc-2' : 'chatcmpl-lc-1',
          object: 'chat.completion',
          created: 1_764_000_000,
          model: 'gpt-4o-mini-2024-07-18',
          choices: [{ index: 0, message, finish_reason: answering ? 'stop' : 'tool_calls' }],
          usage,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseURL: `http://127.0.0.1:${port}/v1`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * OpenLLMetry with LangChain: a LangChain agent (langchain's createAgent, ChatOpenAI, one
 * tool) inside a Traceloop workflow, its model served over HTTP. Both instrumentations
 * report each model call: LangChain's callback span and the openai client's span, siblings.
 * The SDK sent each span alone as it ended (tests replay them so, by end time).
 */
async function recordTraceloopLangChain(): Promise<void> {
  const traceloop = await startTraceloop();
  const { ChatOpenAI } = await import('@langchain/openai');
  const { tool: langchainTool } = await import('@langchain/core/tools');
  const { createAgent } = await import('langchain');
  const provider = await openAiCompatibleServer();
  try {
    const getWeather = langchainTool(async ({ city }: { city: string }) => JSON.stringify({ city, condition: 'sunny' }), {
      name: 'get_weather',
      description: 'Current weather for a city',
      schema: z.object({ city: z.string() }),
    });
    const agent = createAgent({
      model: new ChatOpenAI({ model: 'gpt-4o-mini', apiKey: 'sk-fixture', configuration: { baseURL: provider.baseURL } }),
      tools: [getWeather],
    });
    await traceloop.withAssociationProperties({ session_id: 'session-lc-1' }, () =>
      traceloop.withWorkflow({ name: 'weather_chat' }, () => agent.invoke({ messages: [{ role: 'user', content: 'What is the weather in Paris?' }] })),
    );
    await traceloop.forceFlush();
    save('traceloop-langchain.json', traceloopMemory);
  } finally {
    await provider.close();
  }
}

// Every fixture, or those named on the command line.
const wanted = new Set(process.argv.slice(2));
const want = (name: string) => wanted.size === 0 || wanted.has(name);
if (want('vercel-ai')) await recordVercelAi();
if (want('openinference')) await recordOpenInference();
if (want('genai')) await recordGenAi();
if (want('crossroads')) await recordCrossroads();
await provider.shutdown();
if (want('langfuse')) await recordLangfuse();
if (want('mastra')) await recordMastra();
// OpenLLMetry installs its own global provider, context manager and propagator.
trace.disable();
context.disable();
propagation.disable();
if (want('traceloop')) await recordTraceloop();
if (want('traceloop-langchain')) await recordTraceloopLangChain();
// Its NodeSDK keeps no timers alive that matter to a one-off script.
process.exit(0);
