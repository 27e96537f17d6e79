// Shared looks of the settings forms and tables (one place, so both pages match).
export const fieldLabel = 'text-xs font-medium text-muted';
export const input =
  'h-8 w-full rounded-md border border-border-strong bg-bg px-2.5 text-sm text-fg placeholder:text-muted disabled:opacity-60';
export const primaryButton =
  'inline-flex h-8 items-center justify-center gap-2 rounded-md bg-accent px-3 text-sm font-medium whitespace-nowrap text-bg hover:opacity-90 disabled:opacity-70';
export const secondaryButton =
  'inline-flex h-8 items-center justify-center gap-2 rounded-md border border-border-strong bg-bg px-3 text-sm font-medium whitespace-nowrap text-fg hover:bg-surface-2 disabled:opacity-60';
export const dangerButton =
  'inline-flex h-8 items-center justify-center gap-2 rounded-md bg-red-700 px-3 text-sm font-medium whitespace-nowrap text-white hover:bg-red-800 disabled:opacity-70 dark:bg-red-300 dark:text-red-950 dark:hover:bg-red-200';
/** A quiet destructive action in a table row. */
export const rowDangerButton =
  'rounded px-2 py-1 text-sm font-medium text-red-800 hover:bg-red-50 disabled:opacity-50 dark:text-red-200 dark:hover:bg-red-950/50';
export const card = 'rounded-lg border border-border bg-surface p-4';
export const errorText = 'text-sm text-red-800 dark:text-red-200';
export const th = 'px-3 py-2 text-left text-xs font-medium text-muted';
export const td = 'px-3 py-2 align-middle';
