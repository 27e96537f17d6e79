import type { ReactNode } from 'react';
import { AppHeader } from '@/components/app/AppHeader';
import { FirstRunProvider, type FirstRunInfo } from '@/components/app/FirstRun';
import { OpenModeBanner } from '@/components/app/OpenModeBanner';
import { CanDeleteProvider } from '@/components/traces/delete/CanDelete';
import { CanCurateProvider } from '@/components/datasets/CanCurate';
import { allows, mayDeleteTraces } from '@/lib/core/access/decide';
import { pageContext } from '@/lib/transports/pages/context';

// The app's frame: the header and who is signed in. Its redirect to sign-in is a
// convenience for document requests; the protection is each page's own pageContext()
// and the verbs behind it, since a client-side navigation renders the page without this.
export default async function AppLayout({ children }: { children: ReactNode }) {
  const { ctx, actor } = await pageContext();
  const admin = allows(ctx.principal, 'admin');
  // Settings show to admins, and in open mode, whose visitor configures the server.
  const settings = allows(ctx.principal, 'configure');
  const firstRun: FirstRunInfo = { mode: actor.kind === 'open' ? 'open' : 'protected', admin, demo: admin ? 'session' : actor.kind === 'open' ? 'open' : null };
  return (
    <>
      {actor.kind === 'open' && <OpenModeBanner />}
      <AppHeader actor={actor} settings={settings} />
      <main id="main" className="mx-auto max-w-[1600px] px-4 py-5 xl:px-6">
        <CanDeleteProvider allowed={mayDeleteTraces(actor)}>
          <CanCurateProvider allowed={allows(ctx.principal, 'curate')}>
            <FirstRunProvider info={firstRun}>{children}</FirstRunProvider>
          </CanCurateProvider>
        </CanDeleteProvider>
      </main>
    </>
  );
}
