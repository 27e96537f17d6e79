// The quiet destructive button of the trace pages (the dialog's own buttons come from ConfirmDialog).
export const deleteButton =
  'inline-flex h-7 items-center gap-1.5 rounded-md border border-red-300 px-2 text-xs font-medium whitespace-nowrap text-red-800 hover:bg-red-50 disabled:opacity-60 dark:border-red-800 dark:text-red-200 dark:hover:bg-red-950/50';
