import { describe, expect, it } from 'vitest';
import { BusyError, ByteBudget, processBudget } from './budget';

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

describe('processBudget', () => {
  it('is one budget per name, renewed when its capacity changes', () => {
    const a = processBudget('test budget', 10);
    expect(processBudget('test budget', 10)).toBe(a);
    expect(processBudget('other test budget', 10)).not.toBe(a);
    const b = processBudget('test budget', 20);
    expect(b).not.toBe(a);
    expect(b.capacity).toBe(20);
  });
});
