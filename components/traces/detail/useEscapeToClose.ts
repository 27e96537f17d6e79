'use client';

import { useEffect } from 'react';

/** Whether a key pressed here is typing: Escape there belongs to the field (clearing a search box). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (!(target instanceof HTMLInputElement)) return false;
  return !['button', 'checkbox', 'radio', 'range', 'color', 'file', 'submit', 'reset', 'image'].includes(target.type);
}

/**
 * Escape anywhere on the page calls `close` while `active`: not while typing in a field, not
 * inside `ownKeys` (an element that handles Escape itself: the details panel narrows first),
 * not when something handled it already, and not under an open modal dialog, which Escape
 * cancels. (React listens on the document too, so its stopPropagation does not stop this.)
 */
export function useEscapeToClose(active: boolean, close: () => void, ownKeys: string): void {
  useEffect(() => {
    if (!active) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || e.isComposing || isTyping(e.target)) return;
      if (e.target instanceof Element && e.target.closest(ownKeys)) return;
      if (document.querySelector('dialog[open]')) return;
      close();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [active, close, ownKeys]);
}
