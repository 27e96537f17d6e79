import { describe, expect, it } from 'vitest';
import { BusyError } from '@/lib/core/budget';
import { bodiesInFlight, withBodyAdmission } from './admission';
import { toHttpResponse } from '@/lib/transports/http/respond';

describe('toHttpResponse for overload', () => {
  it('answers 503 with Retry-After when the budget is exhausted', async () => {
    const res = toHttpResponse(new BusyError(3));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('3');
    expect((await res.json()).error).toMatch(/Server busy/);
  });

  it('answers 503, not 500, when the connection pool cannot lend a connection', async () => {
    const cause = new Error('timeout exceeded when trying to connect');
    const res = toHttpResponse(new Error('Invalid `prisma.$executeRawUnsafe()` invocation', { cause }));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await res.json()).toEqual({ error: 'Database busy, retry later' });
  });
});

describe('bodiesInFlight', () => {
  it('is true exactly while a request body is admitted (the search indexer yields then)', async () => {
    const limits = { maxBodyBytes: 1000, maxInflightBodyBytes: 10_000, admissionWaitMs: 100 };
    const req = new Request('http://x/api/traces', { method: 'POST', body: '{}', headers: { 'content-length': '2' } });
    expect(bodiesInFlight()).toBe(false);
    const seen = await withBodyAdmission(req, limits, async () => bodiesInFlight());
    expect(seen).toBe(true);
    expect(bodiesInFlight()).toBe(false);
    await expect(withBodyAdmission(req, limits, () => Promise.reject(new Error('bad body')))).rejects.toThrow('bad body');
    expect(bodiesInFlight()).toBe(false);
  });
});
