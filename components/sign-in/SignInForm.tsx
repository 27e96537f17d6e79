'use client';

import { useMutation } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Spinner } from '@/components/ui/states';
import { useHydrated, useHydrationMarker } from '@/components/ui/time';
import { signInWithEmail, startSso } from './requests';

const inputClass =
  'h-9 w-full rounded-md border border-border-strong bg-bg px-3 text-sm text-fg placeholder:text-muted disabled:opacity-60';

/**
 * Email and password, and single sign-on when the server has a provider. Success is a
 * full navigation to `next`, so the server renders the page with the new cookie.
 */
export function SignInForm({
  next,
  errorPath,
  ssoProviderId,
  initialError,
}: {
  /** Where to go once signed in (already checked to be a path of this site). */
  next: string;
  /** This page, with ?next kept: where a failed single sign-on comes back to. */
  errorPath: string;
  /** The SSO provider's id when single sign-on is configured. */
  ssoProviderId: string | null;
  /** Why the last single sign-on failed (from ?error=). */
  initialError: string | null;
}) {
  const id = useId();
  const hydrated = useHydrated();
  useHydrationMarker('sign-in');
  const [leaving, setLeaving] = useState(false);
  const passwordInput = useRef<HTMLInputElement>(null);

  const password = useMutation({
    mutationFn: (creds: { email: string; password: string }) => signInWithEmail(creds.email, creds.password),
    onSuccess: () => {
      setLeaving(true);
      window.location.assign(next);
    },
    // Ready for the next attempt: the password selected, the email kept.
    onError: () => passwordInput.current?.select(),
  });
  const sso = useMutation({
    mutationFn: () => startSso(ssoProviderId ?? '', next, errorPath),
    onSuccess: (url) => {
      setLeaving(true);
      window.location.assign(url);
    },
  });

  const busy = !hydrated || leaving || password.isPending || sso.isPending;
  // The latest failure wins; an SSO error from the URL shows until something else is tried.
  const error = password.error?.message ?? sso.error?.message ?? (password.isIdle && sso.isIdle ? initialError : null);

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const data = new FormData(e.currentTarget);
    sso.reset();
    password.mutate({ email: String(data.get('email') ?? '').trim(), password: String(data.get('password') ?? '') });
  };

  return (
    <div className="flex flex-col gap-5">
      {error && (
        <p role="alert" id={`${id}-error`} className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950/40 dark:text-red-100">
          {error}
        </p>
      )}
      {/* method="post": a submit before hydration must never put the password in the URL. */}
      <form method="post" onSubmit={onSubmit} className="flex flex-col gap-4" aria-describedby={error ? `${id}-error` : undefined}>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-email`} className="text-sm font-medium">
            Email
          </label>
          <input id={`${id}-email`} name="email" type="email" autoComplete="username" required autoFocus className={inputClass} />
        </div>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-password`} className="text-sm font-medium">
            Password
          </label>
          <input ref={passwordInput} id={`${id}-password`} name="password" type="password" autoComplete="current-password" required className={inputClass} />
        </div>
        <button
          type="submit"
          disabled={busy}
          className="inline-flex h-9 items-center justify-center gap-2 rounded-md bg-accent px-4 text-sm font-medium text-bg hover:opacity-90 disabled:opacity-70"
        >
          {(password.isPending || (leaving && password.isSuccess)) && <Spinner />}
          Sign in
        </button>
      </form>
      {ssoProviderId && (
        <>
          <div className="flex items-center gap-3 text-xs text-muted" aria-hidden="true">
            <span className="h-px flex-1 bg-border" />
            or
            <span className="h-px flex-1 bg-border" />
          </div>
          <button
            type="button"
            disabled={busy}
            onClick={() => {
              password.reset();
              sso.mutate();
            }}
            className="inline-flex h-9 items-center justify-center gap-2 rounded-md border border-border-strong bg-bg px-4 text-sm font-medium text-fg hover:bg-surface-2 disabled:opacity-70"
          >
            {(sso.isPending || (leaving && sso.isSuccess)) && <Spinner />}
            Sign in with SSO
          </button>
        </>
      )}
    </div>
  );
}
