/**
 * Text cut in the middle when its box is too narrow: the start shrinks to an ellipsis and
 * the last `tail` characters always show, so ids that differ only at the end (sess-…a41f,
 * sess-…b07c) stay apart. The whole text is in the title (shown on hover), and the
 * two parts' text content is the whole text, so copying and finding it still work.
 */
export function MiddleEllipsis({ text, tail = 6, className = '', title = text }: { text: string; tail?: number; className?: string; title?: string }) {
  const chars = Array.from(text);
  if (chars.length <= tail + 3) {
    return (
      <span className={`block truncate ${className}`} title={title}>
        {text}
      </span>
    );
  }
  return (
    <span className={`flex min-w-0 ${className}`} title={title}>
      <span className="min-w-0 truncate">{chars.slice(0, -tail).join('')}</span>
      <span className="shrink-0">{chars.slice(-tail).join('')}</span>
    </span>
  );
}
