// A model call reported twice (OpenLLMetry's LangChain and openai instrumentations both on)
// is counted once in the trace's tokens and cost, however its spans reach the server: the
// recorded run sent whole, one span a request as its SDK sent them (each span alone as it
// ended), in reverse, and all at once. Through the real decoder, mapper and store.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calcPrice } from '@pydantic/genai-prices';
import type { Database } from '@/lib/db/open';
import { sql } from '@/lib/db/sql';
import { expectDerivedExact } from '@/test/support/derived';
import { testDatabases } from '@/test/support/databases';
import { testContext } from '@/test/support/context';
import { receiveOtlpTraces } from '@/lib/transports/otlp/receive';

const LIMITS = { maxSpansPerRequest: 10_000, maxChildrenPerTrace: 10_000 };

interface JsonSpan {
  traceId: string;
  endTimeUnixNano: string | number;
  [key: string]: unknown;
}
interface JsonRequest {
  resourceSpans: Array<{ resource: unknown; scopeSpans: Array<{ scope: unknown; spans: JsonSpan[] }> }>;
}

const FIXTURE: JsonRequest = JSON.parse(
  readFileSync(path.join(import.meta.dirname, '../../../test/fixtures/otlp/traceloop-langchain.json'), 'utf8'),
);

/** The recorded run under a fresh trace id: one request of every span, or one request per span in the order they ended. */
function requests(traceId: string): { whole: string; oneByOne: string[] } {
  const alone: Array<{ end: bigint; body: JsonRequest }> = [];
  const whole: JsonRequest = { resourceSpans: [] };
  for (const { resource, scopeSpans } of FIXTURE.resourceSpans) {
    const scopes = scopeSpans.map(({ scope, spans }) => ({ scope, spans: spans.map((s) => ({ ...s, traceId })) }));
    whole.resourceSpans.push({ resource, scopeSpans: scopes });
    for (const { scope, spans } of scopes) {
      for (const span of spans) alone.push({ end: BigInt(span.endTimeUnixNano), body: { resourceSpans: [{ resource, scopeSpans: [{ scope, spans: [span] }] }] } });
    }
  }
  alone.sort((a, b) => (a.end < b.end ? -1 : a.end > b.end ? 1 : 0));
  return { whole: JSON.stringify(whole), oneByOne: alone.map((r) => JSON.stringify(r.body)) };
}

// The two calls the model server answered, each counted once, priced as the catalog prices them.
const TOKENS = 60 + 15 + 90 + 9;
const COST =
  calcPrice({ input_tokens: 60, output_tokens: 15 }, 'gpt-4o-mini', { providerId: 'openai' })!.total_price +
  calcPrice({ input_tokens: 90, output_tokens: 9 }, 'gpt-4o-mini', { providerId: 'openai' })!.total_price;

describe.each(testDatabases())('a model call reported twice, on $name', ({ open }) => {
  let db: Database;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db?.close();
  });

  const send = (body: string) => receiveOtlpTraces(testContext(db), 'json', new TextEncoder().encode(body), LIMITS);

  async function expectCountedOnce(traceId: string): Promise<void> {
    const [trace] = await db.sql.query<{ totalTokens: number; totalCost: number; unpricedCalls: number; spanCount: number }>(
      sql`SELECT "totalTokens", "totalCost", "unpricedCalls", "spanCount" FROM "Trace" WHERE "id" = ${traceId}`,
    );
    expect(trace).toMatchObject({ totalTokens: TOKENS, unpricedCalls: 0, spanCount: 13 });
    expect(trace.totalCost).toBeCloseTo(COST, 15);
    // The openai client's span beside each LangChain one is the copy; both stay stored.
    const calls = await db.sql.query<{ scope: string; duplicateOf: string | null; tokenCount: number }>(
      sql`SELECT "metadata"->'otel'->'scope'->>'name' AS scope, "metadata"->>'duplicateOf' AS "duplicateOf", "tokenCount"
         FROM "Span" WHERE "traceId" = ${traceId} AND "type" = 'LLM_CALL' ORDER BY "startedAt", "id"`,
    );
    expect(calls.map((c) => [c.scope, c.tokenCount, c.duplicateOf !== null])).toEqual([
      ['@traceloop/instrumentation-langchain', 75, false],
      ['@traceloop/instrumentation-openai', 75, true],
      ['@traceloop/instrumentation-langchain', 99, false],
      ['@traceloop/instrumentation-openai', 99, true],
    ]);
    // A recount from the stored spans that are not copies.
    const [recount] = await db.sql.query<{ tokens: number; cost: number }>(
      sql`SELECT sum("tokenCount") AS tokens, sum("costUsd") AS cost FROM "Span" WHERE "traceId" = ${traceId} AND NOT coalesce("metadata" ? 'duplicateOf', false)`,
    );
    expect(Number(recount.tokens)).toBe(TOKENS);
    expect(Number(recount.cost)).toBeCloseTo(trace.totalCost, 15);
  }

  it('sent whole, in one request', async () => {
    const traceId = randomBytes(16).toString('hex');
    await send(requests(traceId).whole);
    await expectCountedOnce(traceId);
  });

  it('one span a request, in the order they ended (as the SDK sent them)', async () => {
    const traceId = randomBytes(16).toString('hex');
    for (const body of requests(traceId).oneByOne) await send(body);
    await expectCountedOnce(traceId);
  });

  it('one span a request, in reverse, then all of them again (a retry stores nothing twice)', async () => {
    const traceId = randomBytes(16).toString('hex');
    const { oneByOne, whole } = requests(traceId);
    for (const body of [...oneByOne].reverse()) await send(body);
    await send(whole);
    await expectCountedOnce(traceId);
  });

  it('one span a request, all at once', async () => {
    const traceId = randomBytes(16).toString('hex');
    await Promise.all(requests(traceId).oneByOne.map(send));
    await expectCountedOnce(traceId);
    await expectDerivedExact(db);
  });
});
