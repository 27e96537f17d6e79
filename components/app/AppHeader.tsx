import Link from 'next/link';
import type { Actor } from '@/lib/access/decide';
import { Logo } from './Logo';
import { SignOutButton } from './SignOutButton';

/** The bar on every page of the app: where to go, and who is signed in. */
export function AppHeader({ actor }: { actor: Actor }) {
  const isAdmin = actor.kind === 'user' && actor.role === 'admin';
  return (
    <header className="border-b border-border bg-surface">
      <div className="mx-auto flex h-12 max-w-[1600px] items-center gap-6 px-4 xl:px-6">
        <Link href="/traces" className="flex items-center gap-2 font-semibold tracking-tight">
          <Logo />
          Crossroads
        </Link>
        <nav aria-label="Main" className="flex gap-1">
          <Link href="/traces" className="rounded px-2 py-1 text-muted hover:text-fg">
            Traces
          </Link>
          <Link href="/sessions" className="rounded px-2 py-1 text-muted hover:text-fg">
            Sessions
          </Link>
          <Link href="/insights" className="rounded px-2 py-1 text-muted hover:text-fg">
            Insights
          </Link>
          {isAdmin && (
            <>
              <Link href="/settings/users" className="rounded px-2 py-1 text-muted hover:text-fg">
                Users
              </Link>
              <Link href="/settings/api-keys" className="rounded px-2 py-1 text-muted hover:text-fg">
                API keys
              </Link>
            </>
          )}
        </nav>
        {actor.kind === 'user' && (
          <div className="ml-auto flex items-center gap-3" data-testid="account">
            <span className="text-muted">
              Signed in as <span className="font-medium text-fg">{actor.email}</span>{' '}
              <span className="text-xs">({actor.role})</span>
            </span>
            <SignOutButton />
          </div>
        )}
      </div>
    </header>
  );
}
