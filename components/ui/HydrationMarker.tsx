'use client';

import { useHydrationMarker } from '@/components/ui/time';

/** Marks the document hydrated for this view (end-to-end tests wait for it). */
export function HydrationMarker({ view }: { view: string }) {
  useHydrationMarker(view);
  return null;
}
