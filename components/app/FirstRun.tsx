'use client';

import { createContext, useContext, type ReactNode } from 'react';
import type { DemoCaller } from '@/lib/client/demo';

// What the empty states say and offer, decided on the server by the app layout from who
// is looking: the server's mode, whether they are an admin, and whether (and how) they
// may load or remove demo data. It only shapes the page: the API checks every request.
export interface FirstRunInfo {
  mode: 'open' | 'protected';
  admin: boolean;
  /** How this page's requests to /api/demo authenticate; null: it may not manage demo data. */
  demo: DemoCaller | null;
}

const FirstRunContext = createContext<FirstRunInfo>({ mode: 'protected', admin: false, demo: null });

export function FirstRunProvider({ info, children }: { info: FirstRunInfo; children: ReactNode }) {
  return <FirstRunContext value={info}>{children}</FirstRunContext>;
}

export function useFirstRun(): FirstRunInfo {
  return useContext(FirstRunContext);
}
