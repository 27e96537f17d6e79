/**
 * Page numbers to show around `page`: always the first and last, two either side of
 * the current one, and null for a gap: [1, null, 4, 5, 6, 7, 8, null, 20].
 */
export function pageWindow(page: number, totalPages: number, around = 2): Array<number | null> {
  const pages = new Set<number>([1, totalPages]);
  for (let p = page - around; p <= page + around; p++) if (p >= 1 && p <= totalPages) pages.add(p);
  // Show the single page a gap would hide instead of an ellipsis.
  const sorted = [...pages].sort((a, b) => a - b);
  const out: Array<number | null> = [];
  for (let i = 0; i < sorted.length; i++) {
    if (i > 0) {
      const gap = sorted[i] - sorted[i - 1];
      if (gap === 2) out.push(sorted[i] - 1);
      else if (gap > 2) out.push(null);
    }
    out.push(sorted[i]);
  }
  return out;
}
