import { describe, expect, it } from 'vitest';
import { Meter } from './meter';

describe('Meter', () => {
  it('reports totalDuration always and database time and records when tracing', async () => {
    const meter = new Meter(performance.now() - 25);
    await meter.db(() => new Promise((r) => setTimeout(r, 15)));
    meter.recordsRead += 3;
    meter.recordsWritten += 2;
    const plain = meter.infos(false);
    expect(plain).toHaveLength(1);
    expect(plain[0].type).toBe('totalDuration');
    expect(Number(plain[0].message)).toBeGreaterThanOrEqual(39);
    const traced = Object.fromEntries(meter.infos(true).map((i) => [i.type, i.message]));
    expect(Number(traced.dbDuration)).toBeGreaterThanOrEqual(14);
    expect(traced).toMatchObject({ recordsRead: '3', recordsWritten: '2' });
  });

  it('counts database time of a failed step too', async () => {
    const meter = new Meter();
    await expect(meter.db(() => new Promise((_, rej) => setTimeout(() => rej(new Error('x')), 10)))).rejects.toThrow('x');
    expect(meter.dbMs).toBeGreaterThanOrEqual(9);
  });
});
