// An agent run as a Vercel AI SDK user writes it, for the OTLP tests (the exporter test
// in app/api/otel/v1/traces and e2e/otlp.spec.ts): `generateText` with three tools on
// offer, a mock model (no network) that calls one of them and then answers, and the
// SDK's own telemetry on. The spans it emits are the real ones: ai.generateText, two
// ai.generateText.doGenerate and one ai.toolCall.
import type { Tracer } from '@opentelemetry/api';
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';

/** What the mock model says and reports, so tests can check what arrived against it. */
export const WEATHER_RUN = {
  prompt: 'What is the weather in Lyon?',
  chosenTool: 'getWeather',
  arguments: { city: 'Lyon' },
  toolCallId: 'call-weather-1',
  /** The text the model writes beside its tool call. */
  reasoning: 'Let me check the current weather in Lyon.',
  toolResult: { city: 'Lyon', sky: 'sunny', celsius: 21 },
  answer: 'It is sunny in Lyon, 21 °C.',
  /** Offered but not called, in the order offered (getTime has no description). */
  alternatives: [{ tool: 'searchWeb', description: 'Search the web' }, { tool: 'getTime' }],
  /** Input + output tokens of each model call; the ai.generateText wrapper repeats their sum. */
  tokens: [30 + 12, 55 + 9],
} as const;

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});

export interface WeatherRun {
  text: string;
  /** How many times each tool's execute ran. */
  executed: Record<string, number>;
}

/** Runs the agent; its spans go to `tracer`, the run is named `functionId`. */
export async function runWeatherAgent(tracer: Tracer, functionId = 'weather-agent'): Promise<WeatherRun> {
  const executed: Record<string, number> = { getWeather: 0, searchWeb: 0, getTime: 0 };
  const model = new MockLanguageModelV3({
    modelId: 'mock-weather-model',
    doGenerate: [
      {
        content: [
          { type: 'text', text: WEATHER_RUN.reasoning },
          {
            type: 'tool-call',
            toolCallId: WEATHER_RUN.toolCallId,
            toolName: WEATHER_RUN.chosenTool,
            input: JSON.stringify(WEATHER_RUN.arguments),
          },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage: usage(30, 12),
        warnings: [],
      },
      {
        content: [{ type: 'text', text: WEATHER_RUN.answer }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: usage(55, 9),
        warnings: [],
      },
    ],
  });
  const result = await generateText({
    model,
    prompt: WEATHER_RUN.prompt,
    stopWhen: stepCountIs(3),
    tools: {
      getWeather: tool({
        description: 'Current weather for a city',
        inputSchema: z.object({ city: z.string() }),
        execute: async ({ city }) => {
          executed.getWeather += 1;
          return { ...WEATHER_RUN.toolResult, city };
        },
      }),
      searchWeb: tool({
        description: 'Search the web',
        inputSchema: z.object({ query: z.string() }),
        execute: async ({ query }) => {
          executed.searchWeb += 1;
          return `results for ${query}`;
        },
      }),
      getTime: tool({
        inputSchema: z.object({ timezone: z.string() }),
        execute: async () => {
          executed.getTime += 1;
          return new Date().toISOString();
        },
      }),
    },
    experimental_telemetry: { isEnabled: true, functionId, tracer },
  });
  return { text: result.text, executed };
}
