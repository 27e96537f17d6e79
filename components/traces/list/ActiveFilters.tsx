'use client';

import { humanizeEnum } from '@/lib/core/format';
import { activeListFilters, LIST_FILTERS, TIME_RANGE_LABELS, withListFilters } from '@/lib/client/list-filters';
import type { TimeRange } from '@/lib/features/traces/shared';
import type { ListParams } from '@/lib/features/traces/shared';
import { DateTime } from '@/components/ui/time';
import { usePathLabel } from './PathLabels';
import type { ListNavigate } from './useListUrl';

/**
 * The time range (a relative `range` or from/to) shows here too, above the list, so the
 * window a view reads is never only inside the Filters panel.
 *
 * The filters set by a link (an insights drill-down, a shared URL) that the filter bar has
 * no control for, as chips that each remove their filter (or one of its values). Driven by
 * LIST_FILTERS: a new filter shows here without a change to this file.
 */
export function ActiveFilters({
  params,
  navigate,
}: {
  params: ListParams;
  navigate: ListNavigate;
}) {
  const chips = activeListFilters(params).filter(({ key }) => !LIST_FILTERS[key].control);
  if (chips.length === 0) return null;
  return (
    <ul aria-label="Other filters" className="-mt-1 flex flex-wrap items-center gap-2">
      {chips.map((chip) => (
        <FilterChip key={chip.id} chip={chip} navigate={navigate} />
      ))}
    </ul>
  );
}

type Chip = ReturnType<typeof activeListFilters>[number];

function FilterChip({ chip, navigate }: { chip: Chip; navigate: ListNavigate }) {
  const field = LIST_FILTERS[chip.key];
  // A path or fork id reads as its steps ("after billing"), the id on hover.
  const words = usePathLabel(chip.key === 'path' || chip.key === 'fork' ? chip.value : '');
  const shown =
    words ??
    (field.show === 'enum' ? humanizeEnum(chip.value) : field.show === 'range' ? (TIME_RANGE_LABELS[chip.value as TimeRange] ?? chip.value) : chip.value);
  return (
      <li
        data-filter={chip.key}
        className="inline-flex max-w-md items-center gap-1 rounded-full border border-border-strong bg-surface py-0.5 pr-1 pl-2.5 text-sm"
      >
        <span className="text-muted">{chip.label}:</span>
        {field.show === 'date' ? (
          <DateTime iso={chip.value} className="font-medium tabular" />
        ) : (
          <span className="truncate font-medium" title={words ? `${words} (${chip.value})` : shown}>
            {shown}
          </span>
        )}
        <button
          type="button"
          onClick={() => navigate((current) => ({ ...withListFilters(current, chip.remove(current)), page: 1 }))}
          aria-label={`Remove filter ${chip.label}: ${shown}`}
          className="ml-0.5 inline-flex h-5 w-5 shrink-0 items-center justify-center rounded-full text-muted hover:bg-surface-2 hover:text-fg"
        >
          <svg aria-hidden="true" width="10" height="10" viewBox="0 0 10 10">
            <path d="M2 2l6 6M8 2l-6 6" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
          </svg>
        </button>
      </li>
  );
}
