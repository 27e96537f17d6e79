import type { Metadata } from 'next';
import { headers } from 'next/headers';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { connection } from 'next/server';
import { Logo } from '@/components/app/Logo';
import { SignInForm } from '@/components/sign-in/SignInForm';
import { ssoErrorMessage } from '@/components/sign-in/sso-errors';
import { OIDC_PROVIDER_ID } from '@/lib/features/access';
import { sessionIdentity } from '@/lib/features/access';
import { accessMode } from '@/lib/features/access';
import { safeNext, signInPath } from '@/lib/transports/pages/sign-in';
import { getAccessConfig } from '@/lib/core/config';

export const metadata: Metadata = { title: 'Sign in' };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

// GET /sign-in - email and password (and SSO when configured); back to ?next after.
// Public (proxy.ts lets it through), outside the app's layout.
export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  // Never prerendered: whether someone is signed in is per request.
  await connection();
  const query = await searchParams;
  const next = safeNext(first(query.next));
  if (await sessionIdentity(await headers())) redirect(next);
  const open = (await accessMode()) === 'open';
  const sso = getAccessConfig().oidc !== undefined;

  return (
    <main id="main" className="flex min-h-dvh items-start justify-center bg-surface px-4 pt-[12vh] pb-12">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex flex-col items-center gap-2 text-center">
          <span className="flex items-center gap-2 text-lg font-semibold tracking-tight">
            <Logo />
            Crossroads
          </span>
          <h1 className="text-2xl font-semibold tracking-tight">Sign in</h1>
          <p className="text-muted">Traces and decisions of your AI agents.</p>
        </div>
        <div className="rounded-lg border border-border bg-bg p-6 shadow-sm">
          {open ? (
            <div className="flex flex-col gap-3">
              <h2 className="text-base font-semibold">No sign-in needed</h2>
              <p className="text-muted">
                This server is in open mode: anyone who can reach it can read and write traces. To require sign-in, set{' '}
                <code className="font-mono text-fg">ADMIN_EMAIL</code> and <code className="font-mono text-fg">ADMIN_PASSWORD</code>{' '}
                and restart.
              </p>
              <Link href={next} className="font-medium text-accent hover:underline">
                Continue to Crossroads →
              </Link>
            </div>
          ) : (
            <SignInForm
              next={next}
              errorPath={signInPath(next)}
              ssoProviderId={sso ? OIDC_PROVIDER_ID : null}
              initialError={ssoErrorMessage(first(query.error))}
            />
          )}
        </div>
        {!open && (
          <p className="mt-4 text-center text-xs text-muted">
            No account? An admin adds people on the Users page. Programs use API keys instead.
          </p>
        )}
      </div>
    </main>
  );
}
