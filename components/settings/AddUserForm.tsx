'use client';

import { useMutation } from '@tanstack/react-query';
import { useId, useRef, type FormEvent } from 'react';
import { ROLES, type Role } from '@/lib/core/access/scopes';
import { settingsRequests, type NewUserInput } from '@/lib/client/settings';
import { Spinner } from '@/components/ui/states';
import { card, errorText, fieldLabel, input, primaryButton } from './styles';

// As lib/features/access/users.ts checks: the form says it before the server does.
const MIN_PASSWORD = 8;
const MAX_PASSWORD = 128;

/** Adds a person with a password and a role; the API's refusals (a taken email) are shown as they come. */
export function AddUserForm({ onAdded }: { onAdded: () => unknown }) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const add = useMutation({
    mutationFn: (user: NewUserInput) => settingsRequests.createUser(user),
    onSuccess: () => {
      form.current?.reset();
      return onAdded();
    },
  });

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    add.mutate({
      email: String(data.get('email') ?? '').trim(),
      name: String(data.get('name') ?? '').trim(),
      password: String(data.get('password') ?? ''),
      role: String(data.get('role') ?? 'viewer') as Role,
    });
  };

  return (
    <section aria-labelledby={`${id}-title`} className={card}>
      <h2 id={`${id}-title`} className="text-base font-semibold">
        Add user
      </h2>
      <form ref={form} method="post" onSubmit={onSubmit} className="mt-3 grid grid-cols-[1.3fr_1fr_1fr_8rem_auto] items-end gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-email`} className={fieldLabel}>
            Email
          </label>
          <input id={`${id}-email`} name="email" type="email" required autoComplete="off" className={input} />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-name`} className={fieldLabel}>
            Name
          </label>
          <input id={`${id}-name`} name="name" type="text" maxLength={200} autoComplete="off" placeholder="From the email if empty" className={input} />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-password`} className={fieldLabel}>
            Password
          </label>
          <input
            id={`${id}-password`}
            name="password"
            type="password"
            required
            minLength={MIN_PASSWORD}
            maxLength={MAX_PASSWORD}
            autoComplete="new-password"
            aria-describedby={`${id}-password-hint`}
            className={input}
          />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-role`} className={fieldLabel}>
            Role
          </label>
          <select id={`${id}-role`} name="role" defaultValue="viewer" className={input}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r === 'admin' ? 'Admin' : 'Viewer'}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={add.isPending} className={primaryButton}>
          {add.isPending && <Spinner />}
          Add user
        </button>
      </form>
      <p id={`${id}-password-hint`} className="mt-2 text-xs text-muted">
        Passwords have {MIN_PASSWORD} to {MAX_PASSWORD} characters. Give it to the person yourself; Crossroads sends no email.
      </p>
      <div aria-live="polite" className="mt-2 empty:hidden">
        {add.isError && (
          <p role="alert" className={errorText}>
            Could not add the user: {add.error.message}
          </p>
        )}
        {add.isSuccess && (
          <p className="text-sm text-emerald-800 dark:text-emerald-200">
            Added {add.variables.email} as {add.variables.role === 'admin' ? 'an admin' : 'a viewer'}.
          </p>
        )}
      </div>
    </section>
  );
}
