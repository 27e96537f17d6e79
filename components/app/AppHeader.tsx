import { HoverPrefetchLink } from '@/components/ui/HoverPrefetchLink';
import type { Actor } from '@/lib/core/access/decide';
import { Logo } from './Logo';
import { SignOutButton } from './SignOutButton';
import { ThemeSwitch } from './ThemeSwitch';

/** The bar on every page of the app: where to go, and who is signed in; `settings` (decided by the layout) shows the settings pages. */
export function AppHeader({ actor, settings }: { actor: Actor; settings: boolean }) {
  return (
    <header className="border-b border-border bg-surface">
      {/* Below sm the nav takes a row of its own (scrolling sideways inside itself if it must): the page never does. */}
      <div className="mx-auto flex min-h-12 max-w-[1600px] flex-wrap items-center gap-x-6 gap-y-1 px-4 py-1 xl:px-6">
        <HoverPrefetchLink href="/traces" className="flex items-center gap-2 font-semibold tracking-tight">
          <Logo />
          Crossroads
        </HoverPrefetchLink>
        <nav aria-label="Main" className="order-last -mx-2 flex w-[calc(100%+1rem)] gap-1 overflow-x-auto whitespace-nowrap sm:order-none sm:mx-0 sm:w-auto">
          <HoverPrefetchLink href="/traces" className="rounded px-2 py-1 text-muted hover:text-fg">
            Traces
          </HoverPrefetchLink>
          <HoverPrefetchLink href="/sessions" className="rounded px-2 py-1 text-muted hover:text-fg">
            Sessions
          </HoverPrefetchLink>
          <HoverPrefetchLink href="/insights" className="rounded px-2 py-1 text-muted hover:text-fg">
            Insights
          </HoverPrefetchLink>
          <HoverPrefetchLink href="/review" className="rounded px-2 py-1 text-muted hover:text-fg">
            Review
          </HoverPrefetchLink>
          <HoverPrefetchLink href="/datasets" className="rounded px-2 py-1 text-muted hover:text-fg">
            Datasets
          </HoverPrefetchLink>
          {settings && (
            <>
              <HoverPrefetchLink href="/settings/users" className="rounded px-2 py-1 text-muted hover:text-fg">
                Users
              </HoverPrefetchLink>
              <HoverPrefetchLink href="/settings/api-keys" className="rounded px-2 py-1 text-muted hover:text-fg">
                API keys
              </HoverPrefetchLink>
              <HoverPrefetchLink href="/settings/scores" className="rounded px-2 py-1 text-muted hover:text-fg">
                Scores
              </HoverPrefetchLink>
              <HoverPrefetchLink href="/settings/evaluators" className="rounded px-2 py-1 text-muted hover:text-fg">
                Evaluators
              </HoverPrefetchLink>
            </>
          )}
        </nav>
        <div className="ml-auto flex min-w-0 items-center gap-3">
          <ThemeSwitch />
          {actor.kind === 'user' && (
            <div className="flex min-w-0 items-center gap-3" data-testid="account">
              <span className="min-w-0 truncate text-muted">
                <span className="hidden sm:inline">Signed in as </span>
                <span className="font-medium text-fg">{actor.email}</span> <span className="text-xs">({actor.role})</span>
              </span>
              <SignOutButton />
            </div>
          )}
        </div>
      </div>
    </header>
  );
}
