import { describe, expect, it } from 'vitest';
import { BusyError, ByteBudget } from '@/lib/budget';
import { toHttpResponse } from './respond';

describe('ByteBudget', () => {
  it('grants within capacity at once and queues the rest in arrival order', async () => {
    const budget = new ByteBudget(10);
    const a = await budget.acquire(6, 1000);
    const order: string[] = [];
    const b = budget.acquire(6, 1000).then((release) => (order.push('b'), release));
    const c = budget.acquire(2, 1000).then((release) => (order.push('c'), release));
    await new Promise((r) => setTimeout(r, 10));
    // c would fit, but waits behind b: first come, first served.
    expect(order).toEqual([]);
    expect(budget.used).toBe(6);
    a();
    const [releaseB, releaseC] = await Promise.all([b, c]);
    expect(order).toEqual(['b', 'c']);
    expect(budget.used).toBe(8);
    releaseB();
    releaseB(); // idempotent
    releaseC();
    expect(budget.used).toBe(0);
  });

  it('lets a request larger than the whole budget run alone', async () => {
    const budget = new ByteBudget(10);
    const release = await budget.acquire(50, 1000);
    expect(budget.used).toBe(10);
    release();
  });

  it('gives up after the wait with BusyError and leaves the budget as it was', async () => {
    const budget = new ByteBudget(10);
    const held = await budget.acquire(10, 1000);
    await expect(budget.acquire(1, 20)).rejects.toBeInstanceOf(BusyError);
    expect(budget.used).toBe(10);
    held();
    expect(budget.used).toBe(0);
    (await budget.acquire(10, 20))();
  });
});

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
