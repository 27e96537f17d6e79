'use client';

import { CHOOSABLE_COLUMNS, DEFAULT_COLUMNS } from './columns';
import { Popover } from './Popover';

/** Which columns the list shows; the choice is remembered in this browser. */
export function ColumnChooser({ columns, onChange }: { columns: string[]; onChange: (keys: string[]) => void }) {
  const shown = new Set(columns);
  return (
    <Popover label="Columns" panelLabel="Columns" align="right" width="sm:w-56" title="Choose the list's columns">
      {() => (
        <fieldset>
          <legend className="mb-2 text-xs font-medium text-muted">Show these columns</legend>
          <ul className="flex flex-col gap-1">
            {CHOOSABLE_COLUMNS.map((c) => (
              <li key={c.key}>
                <label className="flex cursor-pointer items-center gap-2 rounded px-1 py-0.5 text-sm hover:bg-surface-2">
                  <input
                    type="checkbox"
                    checked={shown.has(c.key)}
                    onChange={(e) => onChange(e.target.checked ? [...columns, c.key] : columns.filter((k) => k !== c.key))}
                    className="accent-[var(--color-accent)]"
                  />
                  {c.label}
                </label>
              </li>
            ))}
          </ul>
          <button type="button" onClick={() => onChange(DEFAULT_COLUMNS)} className="mt-2 text-sm text-accent hover:underline">
            Reset to the default columns
          </button>
        </fieldset>
      )}
    </Popover>
  );
}
