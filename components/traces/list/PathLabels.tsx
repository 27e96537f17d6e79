'use client';

import { createContext, useContext, type ReactNode } from 'react';

/** Words for the path and fork ids of the list's filters, keyed by id (the page looks them up). */
export type PathLabels = Record<string, string>;

const PathLabelsContext = createContext<PathLabels>({});

export function PathLabelsProvider({ labels, children }: { labels: PathLabels; children: ReactNode }) {
  return <PathLabelsContext.Provider value={labels}>{children}</PathLabelsContext.Provider>;
}

/** A path or fork id in words, when the page knew it. */
export function usePathLabel(id: string): string | undefined {
  return useContext(PathLabelsContext)[id];
}
