'use client';

// A string remembered in this browser's localStorage, read with useSyncExternalStore so
// every component using the key re-renders when it changes (here or in another tab). The
// server renders as if nothing were stored.
import { useCallback, useSyncExternalStore } from 'react';

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** The stored string (null when nothing is) and a setter; null removes it. */
export function useStoredString(key: string): [string | null, (value: string | null) => void] {
  const value = useSyncExternalStore(subscribe, () => read(key), () => null);
  const set = useCallback(
    (next: string | null) => {
      try {
        if (next === null) window.localStorage.removeItem(key);
        else window.localStorage.setItem(key, next);
      } catch {
        // Storage refused (private mode): nothing to remember the choice by.
      }
      for (const l of listeners) l();
    },
    [key],
  );
  return [value, set];
}
