// The sample before the index probe (lib/traces/search.ts, sampleSaysCommon): a term in
// most rows of a big table is called common without probing, a rare one never is, and a
// table too small to sample leaves the decision to the probe; the list's answers are the
// same either way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/storage/open';
import { testDatabases, truncateAll } from '@/lib/testing/databases';
import { makeTrace } from '@/lib/testing/fixtures';
import { ingestTraces } from './ingest';
import { listTraces, parseListParams } from './list';
import { probeMatchingTraceIds, sampleSaysCommon } from './search';
import { parseIngestBody } from './validate';

const LIMITS = { maxBatchTraces: 1000, maxChildrenPerTrace: 10_000 } as Parameters<typeof parseIngestBody>[1];
const SPANS = 3000;

const BIG = makeTrace({
  id: 'big',
  name: 'bulk agent',
  startedAt: '2026-02-01T10:00:00.000Z',
  endedAt: '2026-02-01T10:30:00.000Z',
  spans: Array.from({ length: SPANS }, (_, i) => ({
    id: `s-${i}`,
    name: `step-${i}`,
    type: 'CHAIN' as const,
    status: 'COMPLETED' as const,
    output: { content: i === 1234 ? 'the zebra-unique order' : `the customer asked about step ${i}` },
    startedAt: `2026-02-01T10:${String(Math.floor(i / 100)).padStart(2, '0')}:00.000Z`,
  })),
});

describe.each(testDatabases())('search sample before the probe on $name', ({ open }) => {
  let db: Database;

  beforeAll(async () => {
    db = await open();
    await truncateAll(db);
    await ingestTraces(db.sql, parseIngestBody(JSON.stringify({ traces: [BIG] }), LIMITS));
    await db.prisma.$executeRawUnsafe('ANALYZE "Span"');
  }, 60_000);
  afterAll(async () => {
    await truncateAll(db);
    await db.close();
  });

  it('calls a term in every span common when 1% of the table is over the cap', async () => {
    expect(await sampleSaysCommon(db.prisma, 'customer', 10)).toBe(true);
    expect(await probeMatchingTraceIds(db.prisma, 'customer', 10)).toBeNull();
  });

  it('never calls a rare term common, and the probe still finds it', async () => {
    expect(await sampleSaysCommon(db.prisma, 'zebra-unique', 10)).toBe(false);
    expect(await probeMatchingTraceIds(db.prisma, 'zebra-unique', 10)).toEqual(['big']);
  });

  it('leaves a table too small for the cap to the probe', async () => {
    // 3,000 spans: 1% is 30, under the default cap of 5,000.
    expect(await sampleSaysCommon(db.prisma, 'customer')).toBe(false);
    expect(await probeMatchingTraceIds(db.prisma, 'customer')).toEqual(['big']);
  });

  it('answers the list the same whichever plan the sample picks', async () => {
    const params = parseListParams(new URLSearchParams('q=customer'));
    const sampled = await listTraces(db.prisma, params, { search: { probeCap: 10 } });
    const probed = await listTraces(db.prisma, params);
    expect(sampled.traces.map((t) => t.id)).toEqual(['big']);
    expect(probed.traces.map((t) => t.id)).toEqual(['big']);
    expect(sampled.traces[0].matches).toEqual(probed.traces[0].matches);
  });
});
