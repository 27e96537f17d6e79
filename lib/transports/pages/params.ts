// Next hands a page its dynamic segments percent-encoded, as they were matched ("a%20b" for
// the trace "a b", "a%2Fb" for "a/b"), where route handlers get them decoded. Pages decode
// them here, once; a segment that is not valid percent-encoding names nothing.
import 'server-only';

/** The page's dynamic segment as the id it names, or null when it cannot be decoded. */
export function pageParam(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
