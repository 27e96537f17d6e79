'use client';

import { useEffect } from 'react';

/** True when a key press belongs to a field being typed in (or a control that uses keys itself). */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.matches('input, textarea, select, [role="dialog"] *');
}

/**
 * The list's keys, anywhere on the page but in a field: `/` focuses the search, `j`/`k`
 * move the focus to the next/previous row's link (Enter then opens it, as any link).
 */
export function useListKeys(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.metaKey || e.ctrlKey || e.altKey || typing(e.target)) return;
      if (e.key === '/') {
        const search = document.getElementById('filter-search');
        if (search instanceof HTMLInputElement) {
          e.preventDefault();
          search.focus();
          // The caret after the text, so typing refines the search.
          search.setSelectionRange(search.value.length, search.value.length);
        }
        return;
      }
      if (e.key !== 'j' && e.key !== 'k') return;
      // The table's or the cards' links, whichever the screen's width shows.
      const links = Array.from(document.querySelectorAll<HTMLAnchorElement>('a[data-row-link], a[data-card-link]')).filter((a) => a.getClientRects().length > 0);
      if (links.length === 0) return;
      const at = links.indexOf(document.activeElement as HTMLAnchorElement);
      const next = at === -1 ? (e.key === 'j' ? 0 : links.length - 1) : Math.min(links.length - 1, Math.max(0, at + (e.key === 'j' ? 1 : -1)));
      e.preventDefault();
      links[next].focus();
      links[next].scrollIntoView({ block: 'nearest' });
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
