import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { AppHeader } from '@/components/app/AppHeader';
import { OpenModeBanner } from '@/components/app/OpenModeBanner';
import { CanDeleteProvider } from '@/components/traces/delete/CanDelete';
import { mayDeleteTraces, pagePrincipal } from '@/lib/access/check';
import { REQUEST_PATH_HEADER, signInPath } from '@/lib/access/pages';

// Every page of the app is under this layout, so none is readable without credentials
// in protected mode (proxy.ts redirects first; this is the check that cannot be skipped).
export default async function AppLayout({ children }: { children: ReactNode }) {
  const h = await headers();
  const principal = await pagePrincipal(h);
  if (!principal) redirect(signInPath(h.get(REQUEST_PATH_HEADER)));
  return (
    <>
      {principal.kind === 'open' && <OpenModeBanner />}
      <AppHeader principal={principal} />
      <main id="main" className="mx-auto max-w-[1600px] px-4 py-5 xl:px-6">
        <CanDeleteProvider allowed={mayDeleteTraces(principal)}>{children}</CanDeleteProvider>
      </main>
    </>
  );
}
