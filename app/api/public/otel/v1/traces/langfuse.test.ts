// Langfuse's own SDK, switched to Crossroads by its base URL: @langfuse/tracing observations
// through @langfuse/otel's LangfuseSpanProcessor, exporting (its OTLP/HTTP JSON exporter,
// Basic auth with public:secret key) to POST /api/public/otel/v1/traces over loopback, on
// every test database. What it sent is read back as the viewer reads it.
import { LangfuseSpanProcessor } from '@langfuse/otel';
import { propagateAttributes, setLangfuseTracerProvider, startActiveObservation } from '@langfuse/tracing';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GET as getDetail } from '@/app/api/traces/[id]/route';
import { useDatabase } from '@/lib/db';
import type { Database } from '@/lib/db/open';
import type { TraceDetail } from '@/lib/features/traces/types';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { serveRoutes, type RouteServer } from '@/test/support/route-server';
import { POST } from './route';

const API_KEY = 'langfuse-secret-as-crossroads-key';
const PATH = '/api/public/otel/v1/traces';

let server: RouteServer;
const statuses: number[] = [];
beforeAll(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  server = await serveRoutes({
    [PATH]: async (req) => {
      const res = await POST(req);
      statuses.push(res.status);
      return res;
    },
  });
});
afterAll(async () => {
  await server.close();
  context.disable();
});

/** Langfuse's processor as its docs set it up, pointed at this server. */
function langfuse(secretKey: string): NodeTracerProvider {
  const provider = new NodeTracerProvider({
    spanProcessors: [new LangfuseSpanProcessor({ baseUrl: server.origin, publicKey: 'pk-lf-ignored', secretKey, exportMode: 'immediate' })],
  });
  setLangfuseTracerProvider(provider);
  return provider;
}

async function run(): Promise<string> {
  let traceId = '';
  await propagateAttributes({ userId: 'user-42', sessionId: 'chat-7', tags: ['beta'], traceName: 'refund-request' }, () =>
    startActiveObservation(
      'support-agent',
      async (agent) => {
        traceId = agent.traceId;
        agent.update({ input: { question: 'Where is order 7?' } });
        await startActiveObservation(
          'chat-completion',
          async (generation) => {
            generation.update({
              model: 'gpt-4o',
              input: { messages: [{ role: 'user', content: 'Where is order 7?' }], tools: [{ type: 'function', function: { name: 'lookup_order' } }, { type: 'function', function: { name: 'refund' } }] },
              output: { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup_order', arguments: '{"id":7}' } }] },
              usageDetails: { input: 70, input_cached_tokens: 30, output: 20 },
              costDetails: { total: 0.0006 },
            });
          },
          { asType: 'generation' },
        );
        await startActiveObservation('refund', async (tool) => tool.update({ input: { id: 7 }, level: 'ERROR', statusMessage: 'Refund service down' }), {
          asType: 'tool',
        });
        agent.update({ output: { answer: 'Shipped.' } });
      },
      { asType: 'agent' },
    ),
  );
  return traceId;
}

describe.each(testDatabases())('LangfuseSpanProcessor to POST /api/public/otel/v1/traces on $name', ({ open }) => {
  let db: Database;
  const savedEnv = { ...process.env };
  let provider: NodeTracerProvider | undefined;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(async () => {
    useDatabase(db);
    process.env.API_KEYS = `other-key,${API_KEY}`;
    statuses.length = 0;
    await truncateAll(db);
  });
  afterEach(async () => {
    await provider?.shutdown();
    setLangfuseTracerProvider(null);
    process.env = { ...savedEnv };
  });

  it('stores the run with the secret key as the Crossroads key: types, payloads, usage, cost, user, session, failure', async () => {
    provider = langfuse(API_KEY);
    const traceId = await run();
    await provider.forceFlush();
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set([200]));

    const res = await getDetail(new Request(`http://test/api/traces/${traceId}`, { headers: { authorization: `Bearer ${API_KEY}` } }), {
      params: Promise.resolve({ id: traceId }),
    });
    expect(res.status).toBe(200);
    const { trace } = (await res.json()) as { trace: TraceDetail };
    expect(trace).toMatchObject({ name: 'refund-request', sessionId: 'chat-7', tags: ['beta'], status: 'COMPLETED', totalTokens: 120, totalCost: 0.0006 });
    const byName = Object.fromEntries(trace.spans.map((s) => [s.name, s]));
    expect(byName['support-agent']).toMatchObject({ type: 'AGENT', input: { question: 'Where is order 7?' }, output: { answer: 'Shipped.' } });
    expect(byName['chat-completion']).toMatchObject({ type: 'LLM_CALL', tokenCount: 120, costUsd: 0.0006 });
    expect(byName.refund).toMatchObject({ type: 'TOOL_CALL', status: 'ERROR', statusMessage: 'Refund service down' });
    expect(trace.decisionPoints).toEqual([
      expect.objectContaining({ type: 'TOOL_SELECTION', chosen: { tool: 'lookup_order', arguments: { id: 7 } }, alternatives: [{ tool: 'refund' }], inferred: true }),
    ]);
  });

  it('is refused (401) with a secret key that is no Crossroads key, and nothing is stored', async () => {
    provider = langfuse('sk-lf-not-a-key');
    const traceId = await run();
    // The exporter reports the 401 as its flush's failure (final: not retried).
    await provider.forceFlush().catch((err: unknown) => expect(String(err)).toContain('Unauthorized'));
    expect(new Set(statuses)).toEqual(new Set([401]));
    const res = await getDetail(new Request(`http://test/api/traces/${traceId}`, { headers: { authorization: `Bearer ${API_KEY}` } }), {
      params: Promise.resolve({ id: traceId }),
    });
    expect(res.status).toBe(404);
  });
});
