'use client';

import { ThemeProvider as NextThemes } from 'next-themes';
import type { ReactNode } from 'react';

/** The remembered choice's key in localStorage. */
export const THEME_STORAGE_KEY = 'crossroads:theme';

/**
 * The colour scheme: the system's unless the person chose light or dark (remembered in
 * this browser). next-themes sets `data-theme` on <html> before the first paint, so a
 * chosen theme never flashes the other one; globals.css and Tailwind's `dark:` read it.
 */
export function ThemeProvider({ children }: { children: ReactNode }) {
  return (
    <NextThemes attribute="data-theme" defaultTheme="system" enableSystem storageKey={THEME_STORAGE_KEY} disableTransitionOnChange>
      {children}
    </NextThemes>
  );
}
