'use client';

import { CHOOSABLE_COLUMNS, DEFAULT_COLUMNS, MAX_SCORE_COLUMNS, SCORE_COLUMN_PREFIX, scoreColumnKey } from './columns';
import { Popover } from './Popover';

/**
 * Which columns the list shows; the choice is remembered in this browser. Score columns are
 * offered for `scoreNames`: the configured names and those on the rows shown.
 */
export function ColumnChooser({ columns, onChange, scoreNames }: { columns: string[]; onChange: (keys: string[]) => void; scoreNames: string[] }) {
  const shown = new Set(columns);
  const chosenScores = columns.filter((k) => k.startsWith(SCORE_COLUMN_PREFIX)).map((k) => k.slice(SCORE_COLUMN_PREFIX.length));
  const names = [...new Set([...scoreNames, ...chosenScores])].sort();
  const full = chosenScores.length >= MAX_SCORE_COLUMNS;
  const toggle = (key: string, on: boolean) => onChange(on ? [...columns, key] : columns.filter((k) => k !== key));
  return (
    <Popover label="Columns" panelLabel="Columns" align="right" width="sm:w-64" title="Choose the list's columns">
      {() => (
        <div className="flex max-h-[70vh] flex-col gap-3 overflow-y-auto">
          <fieldset>
            <legend className="mb-2 text-xs font-medium text-muted">Show these columns</legend>
            <ul className="flex flex-col gap-1">
              {CHOOSABLE_COLUMNS.map((c) => (
                <li key={c.key}>
                  <label className="flex cursor-pointer items-center gap-2 rounded px-1 py-0.5 text-sm hover:bg-surface-2">
                    <input
                      type="checkbox"
                      checked={shown.has(c.key)}
                      onChange={(e) => toggle(c.key, e.target.checked)}
                      className="accent-[var(--color-accent)]"
                    />
                    {c.label}
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
          <fieldset data-testid="score-columns">
            <legend className="mb-1 text-xs font-medium text-muted">Scores (average per trace)</legend>
            {names.length === 0 ? (
              <p className="text-xs text-muted">No score names yet: they come from score configs and the rows shown.</p>
            ) : (
              <ul className="flex flex-col gap-1">
                {names.map((name) => {
                  const key = scoreColumnKey(name);
                  const on = shown.has(key);
                  return (
                    <li key={name}>
                      <label className="flex cursor-pointer items-center gap-2 rounded px-1 py-0.5 text-sm hover:bg-surface-2">
                        <input
                          type="checkbox"
                          checked={on}
                          disabled={!on && full}
                          onChange={(e) => toggle(key, e.target.checked)}
                          className="accent-[var(--color-accent)]"
                        />
                        <span className="min-w-0 truncate font-mono text-xs" title={name}>
                          {name}
                        </span>
                      </label>
                    </li>
                  );
                })}
              </ul>
            )}
            {full && <p className="mt-1 text-xs text-muted">At most {MAX_SCORE_COLUMNS} score columns.</p>}
          </fieldset>
          <button type="button" onClick={() => onChange(DEFAULT_COLUMNS)} className="self-start text-sm text-accent hover:underline">
            Reset to the default columns
          </button>
        </div>
      )}
    </Popover>
  );
}
