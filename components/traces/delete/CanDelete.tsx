'use client';

import { createContext, useContext, type ReactNode } from 'react';

// Whether the person looking may delete traces (admins; lib/core/access/decide.ts
// mayDeleteTraces), decided on the server by the app layout. It only hides the buttons:
// the API checks every DELETE itself.
const CanDeleteContext = createContext(false);

export function CanDeleteProvider({ allowed, children }: { allowed: boolean; children: ReactNode }) {
  return <CanDeleteContext value={allowed}>{children}</CanDeleteContext>;
}

export function useCanDelete(): boolean {
  return useContext(CanDeleteContext);
}
