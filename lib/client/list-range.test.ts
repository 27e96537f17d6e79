// The list's URL state for the relative time range and the model filter: read, written
// back as written (never turned into a fixed from), and refused with a sentence.
import { describe, expect, it } from 'vitest';
import { activeListFilters, readListFilters, TIME_RANGE_LABELS } from './list-filters';
import { listQueryString, readListState } from './traces';
import { readInsightsState } from './insights';

const state = (qs: string) => readListState(new URLSearchParams(qs));

describe('range and model in the list URL', () => {
  it('reads range and model, and writes them back as they were', () => {
    const { params, problem } = state('range=1h&status=ERROR&model=gpt-4o');
    expect(problem).toBeNull();
    expect(params).toEqual({ page: 1, limit: 20, range: '1h', status: 'ERROR', model: 'gpt-4o' });
    expect(listQueryString(params)).toBe('?status=ERROR&model=gpt-4o&range=1h');
  });

  it('refuses an unknown range and a range with from or to', () => {
    expect(state('range=2h').problem).toBe('Time range “2h” is not one of 15m, 1h, 24h, 7d, 30d.');
    expect(state('range=1h&from=2026-01-01T00:00:00Z').problem).toBe('A time range (range) cannot be combined with From or To.');
    expect(state('range=1h&to=2026-01-01T00:00:00Z').problem).toBe('A time range (range) cannot be combined with From or To.');
  });

  it('shows the range as a chip with its label, and leaves it to each page to read', () => {
    const chips = activeListFilters({ range: '24h', model: 'm' });
    expect(chips.map((c) => [c.key, c.label, c.value])).toEqual([
      ['model', 'Model', 'm'],
      ['range', 'Started', '24h'],
    ]);
    expect(TIME_RANGE_LABELS['24h']).toBe('Last 24 hours');
    // The shared reader leaves range alone: insights reads its own presets.
    expect(readListFilters(new URLSearchParams('range=2w')).problems).toEqual([]);
    expect(readInsightsState(new URLSearchParams('range=7d')).range).toBe('7d');
  });
});
