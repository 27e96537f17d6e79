import { needleIn } from '@/lib/features/query/shared';

// Text with every case-insensitive occurrence of a search term marked, as the server
// matched it (lib/features/search/search.ts); used for search snippets in the list and the detail.
export function Highlight({ text, term }: { text: string; term: string | undefined }) {
  if (!term) return <>{text}</>;
  const lower = text.toLowerCase();
  // Inside stored JSON a typed quote or backslash appears escaped: mark that form then.
  const needle = needleIn(lower, term) ?? '';
  const parts: React.ReactNode[] = [];
  let from = 0;
  // Lower-casing can change a string's length (rarely: İ); then marks are skipped, never misplaced.
  if (lower.length === text.length && needle) {
    for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, from)) {
      if (at > from) parts.push(text.slice(from, at));
      parts.push(
        <mark key={at} className="rounded-sm bg-yellow-200 px-0.5 text-fg dark:bg-yellow-500/40">
          {text.slice(at, at + needle.length)}
        </mark>,
      );
      from = at + needle.length;
    }
  }
  if (from < text.length) parts.push(text.slice(from));
  return <>{parts}</>;
}
