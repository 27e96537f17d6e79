'use client';

import { useTheme } from 'next-themes';
import { useSyncExternalStore } from 'react';

const CHOICES = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
] as const;

const noSubscription = () => () => {};

/** System, light or dark; the choice is remembered in this browser. */
export function ThemeSwitch() {
  const { theme, setTheme } = useTheme();
  // The stored choice is known only in the browser: the server's HTML shows "System".
  const hydrated = useSyncExternalStore(noSubscription, () => true, () => false);
  return (
    <label className="flex shrink-0 items-center gap-1 text-xs text-muted">
      <span className="sr-only sm:not-sr-only">Theme</span>
      <select
        aria-label="Theme"
        data-testid="theme-switch"
        value={hydrated ? (theme ?? 'system') : 'system'}
        onChange={(event) => setTheme(event.target.value)}
        className="rounded border border-border bg-bg px-1.5 py-1 text-xs text-fg"
      >
        {CHOICES.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </label>
  );
}
