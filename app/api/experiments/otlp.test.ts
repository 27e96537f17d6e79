// A script runs a dataset through an agent instrumented with OpenTelemetry: the real Node
// SDK and protobuf exporter send each run to the real OTLP route over loopback, naming
// the experiment run in resource attributes (or on the root span); the runs are linked,
// and a run naming an experiment that does not exist is stored but not linked, with the
// reason in the answer's partial success.
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as createDatasetRoute } from '@/app/api/datasets/route';
import { POST as itemsRoute } from '@/app/api/datasets/[name]/items/route';
import { POST as otlpRoute } from '@/app/api/otel/v1/traces/route';
import { useDatabase } from '@/lib/db';
import type { Database } from '@/lib/db/open';
import { resetAccess } from '@/test/support/access';
import { testDatabases } from '@/test/support/databases';
import { uid } from '@/test/support/fixtures';
import { serveRoutes, type RouteServer } from '@/test/support/route-server';
import { GET as getRoute } from './[id]/route';
import { POST as createRoute } from './route';

const KEY = 'experiments-otlp-key';
const AUTH = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const post = (handler: (req: Request, ctx: never) => Promise<Response>, url: string, value: unknown, params?: Record<string, string>) =>
  handler(new Request(`http://x${url}`, { method: 'POST', headers: AUTH, body: JSON.stringify(value) }), { params: Promise.resolve(params ?? {}) } as never);

describe.each(testDatabases())('experiment runs over OTLP on $name', ({ open }) => {
  let db: Database;
  let server: RouteServer;
  const dataset = uid('otlp-ds').slice(0, 90);
  let experimentId = '';

  beforeAll(async () => {
    db = await open();
    useDatabase(db);
    resetAccess();
    server = await serveRoutes({ '/api/otel/v1/traces': (req) => otlpRoute(req) });
    await post(createDatasetRoute, '/api/datasets', { name: dataset });
    await post(itemsRoute, `/api/datasets/${dataset}/items`, { items: [{ id: 'a', input: 'q1' }, { id: 'b', input: 'q2' }] }, { name: dataset });
    experimentId = ((await (await post(createRoute, '/api/experiments', { dataset, name: 'otel-v1' })).json()) as { experiment: { id: string } }).experiment.id;
  });
  afterAll(async () => {
    await server.close();
    await db.close();
  });

  /** One run of the agent as its own SDK (a script sets the run's attributes on the resource). */
  async function runAgent(resource: Record<string, string | number>, rootAttributes: Record<string, string | number> = {}) {
    const exporter = new OTLPTraceExporter({ url: `${server.origin}/api/otel/v1/traces`, headers: { authorization: `Bearer ${KEY}` } });
    const provider = new NodeTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'eval-script', ...resource }), spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tracer = provider.getTracer('agent');
    let traceId = '';
    await tracer.startActiveSpan('agent', { attributes: rootAttributes }, async (root) => {
      traceId = root.spanContext().traceId;
      // Explicitly under the root: no context manager is registered in this test.
      tracer.startSpan('tool', {}, trace.setSpan(context.active(), root)).end();
      root.setStatus({ code: SpanStatusCode.OK });
      root.end();
    });
    await provider.forceFlush();
    await provider.shutdown();
    return traceId;
  }

  it('links each run named on the resource or the root span; a wrong experiment is reported, its spans still stored', async () => {
    const first = await runAgent({ 'crossroads.experiment.id': experimentId, 'crossroads.dataset.item_id': 'a' });
    const second = await runAgent({}, { 'crossroads.experiment.id': experimentId, 'crossroads.dataset.item_id': 'b', 'crossroads.experiment.repetition': 1 });
    const links = await db.sql.query<{ itemId: string; repetition: number; traceId: string }>(
      'SELECT "itemId", "repetition", "traceId" FROM "ExperimentRun" WHERE "experimentId" = $1 ORDER BY "itemId"',
      [experimentId],
    );
    expect(links).toEqual([
      { itemId: 'a', repetition: 0, traceId: first },
      { itemId: 'b', repetition: 1, traceId: second },
    ]);
    const summary = (await (await getRoute(new Request('http://x'), { params: Promise.resolve({ id: experimentId }) })).json()) as { summary: { runs: number; missing: number } };
    expect(summary.summary).toMatchObject({ runs: 2, missing: 0 });

    // The route's own answer for a wrong one: accepted, with the reason.
    const res = await otlpRoute(
      new Request('http://x/api/otel/v1/traces', {
        method: 'POST',
        headers: AUTH,
        body: JSON.stringify({
          resourceSpans: [
            {
              resource: { attributes: [{ key: 'crossroads.experiment.id', value: { stringValue: 'nope' } }, { key: 'crossroads.dataset.item_id', value: { stringValue: 'a' } }] },
              scopeSpans: [{ spans: [{ traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8), name: 'agent', startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000001000000000' }] }],
            },
          ],
        }),
      }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ partialSuccess: { errorMessage: `experiment run not linked: trace ${'ab'.repeat(16)}: experiment "nope" not found` } });
    expect(await db.sql.query('SELECT 1 FROM "Trace" WHERE "id" = $1', ['ab'.repeat(16)])).toHaveLength(1);
  });
});
