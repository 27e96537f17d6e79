'use client';

import { createContext, useContext, type ReactNode } from 'react';

const CanCurateContext = createContext(false);

/** Whether the viewer offers writing datasets (the layout decides: keys never browse, so admins, or anyone in open mode). */
export function CanCurateProvider({ allowed, children }: { allowed: boolean; children: ReactNode }) {
  return <CanCurateContext value={allowed}>{children}</CanCurateContext>;
}

export function useCanCurate(): boolean {
  return useContext(CanCurateContext);
}
