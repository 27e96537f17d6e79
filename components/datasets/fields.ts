// What the dataset forms share: how a JSON field reads, and how it looks.

/** A field's text as JSON when it parses, else the text itself; empty is absent. */
export function jsonOrText(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A JSON field's box (monospace, a few lines tall). */
export const jsonTextarea = 'min-h-20 w-full rounded-md border border-border-strong bg-bg px-2.5 py-1.5 font-mono text-xs text-fg';
