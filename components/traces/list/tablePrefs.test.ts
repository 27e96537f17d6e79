import { describe, expect, it } from 'vitest';
import { clampWidth, MAX_COLUMN_PX, MIN_COLUMN_PX, parseWidths } from './tablePrefs';

describe('stored column widths', () => {
  it('keeps numeric widths, clamped and rounded, and drops anything else', () => {
    expect(parseWidths(null)).toEqual({});
    expect(parseWidths('not json')).toEqual({});
    expect(parseWidths('[1,2]')).toEqual({});
    expect(parseWidths(JSON.stringify({ tags: 90.4, session: 5, model: 5000, cost: 'x', tokens: null }))).toEqual({
      tags: 90,
      session: MIN_COLUMN_PX,
      model: MAX_COLUMN_PX,
    });
    expect(clampWidth(-3)).toBe(MIN_COLUMN_PX);
  });
});
