import { describe, expect, it } from 'vitest';
import { BusyError } from '@/lib/budget';
import { toHttpResponse } from './respond';

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
