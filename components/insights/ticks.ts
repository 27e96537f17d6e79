// Ticks of an axis of counts: whole numbers only, at a 1-2-5 step, from 0 to at or above
// the highest value. Recharts' own allowDecimals still spaces ticks by fractions when the
// counts are small and formats them rounded, which reads "1, 1, 1".

/** At most this many steps above zero. */
const MAX_STEPS = 4;

/** Whole-number ticks from 0 that cover `max`: 0..3 for 3, 0, 2, 4, 6 for 5, 0, 50..200 for 170. */
export function countTicks(max: number): number[] {
  const top = Math.max(1, Math.ceil(Number.isFinite(max) ? max : 0));
  let step = 1;
  for (let magnitude = 1; ; magnitude *= 10) {
    const nice = [1, 2, 5].map((m) => m * magnitude).find((s) => Math.ceil(top / s) <= MAX_STEPS);
    if (nice !== undefined) {
      step = nice;
      break;
    }
  }
  const steps = Math.ceil(top / step);
  return Array.from({ length: steps + 1 }, (_, i) => i * step);
}

/** The highest value a chart draws on one axis: stacked series summed per row, the rest alone. */
export function axisMax(rows: ReadonlyArray<{ values: Record<string, number | null> }>, series: ReadonlyArray<{ key: string; stack?: string }>): number {
  let max = 0;
  for (const row of rows) {
    const stacks = new Map<string, number>();
    for (const s of series) {
      const value = row.values[s.key] ?? 0;
      if (s.stack) stacks.set(s.stack, (stacks.get(s.stack) ?? 0) + value);
      else max = Math.max(max, value);
    }
    for (const total of stacks.values()) max = Math.max(max, total);
  }
  return max;
}
