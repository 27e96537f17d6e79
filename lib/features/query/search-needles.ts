// The forms a full-text search term is looked for in. Pure, so the server's SQL
// (search-sql.ts) and the viewer's marking and matching (client components) share it.

/**
 * JSON columns are searched in the text PostgreSQL prints for them, where a string's
 * quotes, backslashes and control characters are escaped; so besides the term itself we
 * look for its JSON-escaped form, which is how a `"` typed by the user appears inside a
 * stored JSON string. Plain text columns hold the term as typed. Usually both forms are
 * the same and there is one needle.
 */
export function searchNeedles(q: string): string[] {
  const escaped = JSON.stringify(q).slice(1, -1);
  return escaped === q ? [q] : [q, escaped];
}

/** The first needle of `q` that lower-cased `text` contains, lower-cased; undefined when none does. */
export function needleIn(lowerText: string, q: string): string | undefined {
  return searchNeedles(q)
    .map((n) => n.toLowerCase())
    .find((n) => n !== '' && lowerText.includes(n));
}
