'use client';

import { useMutation } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { KEY_SCOPES, type KeyScope } from '@/lib/core/access/scopes';
import { settingsRequests, type CreatedApiKey, type NewApiKeyInput } from '@/lib/client/settings';
import { Spinner } from '@/components/ui/states';
import { card, errorText, fieldLabel, input, primaryButton } from './styles';

const SCOPE_HINT: Record<KeyScope, string> = {
  ingest: 'send traces: POST /api/traces, OTLP, SOAP save',
  read: 'read traces: the GET routes, SOAP read and query',
  delete: 'delete traces and sessions: DELETE /api/traces',
};

/** Makes a key with a name and scopes; the key itself goes to `onCreated`, to be shown once. */
export function CreateApiKeyForm({ onCreated }: { onCreated: (key: CreatedApiKey) => unknown }) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const [noScope, setNoScope] = useState(false);
  const create = useMutation({
    mutationFn: (key: NewApiKeyInput) => settingsRequests.createApiKey(key),
    onSuccess: (created) => {
      form.current?.reset();
      return onCreated(created);
    },
  });

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const scopes = KEY_SCOPES.filter((s) => data.getAll('scope').includes(s));
    setNoScope(scopes.length === 0);
    if (scopes.length === 0) return;
    create.mutate({ name: String(data.get('name') ?? '').trim(), scopes });
  };

  return (
    <section aria-labelledby={`${id}-title`} className={card}>
      <h2 id={`${id}-title`} className="text-base font-semibold">
        Create API key
      </h2>
      <form ref={form} method="post" onSubmit={onSubmit} className="mt-3 flex flex-wrap items-end gap-x-6 gap-y-3">
        <div className="flex w-80 flex-col gap-1">
          <label htmlFor={`${id}-name`} className={fieldLabel}>
            Name
          </label>
          <input
            id={`${id}-name`}
            name="name"
            type="text"
            required
            maxLength={100}
            autoComplete="off"
            placeholder="What uses it, e.g. support-agent prod"
            className={input}
          />
        </div>
        <fieldset className="flex flex-col gap-1" aria-describedby={noScope ? `${id}-scope-error` : undefined}>
          <legend className={`${fieldLabel} mb-1`}>Scopes</legend>
          <div className="flex min-h-8 flex-wrap items-center gap-x-5 gap-y-1">
            {KEY_SCOPES.map((scope) => (
              <span key={scope} className="inline-flex items-center gap-1.5">
                <input
                  id={`${id}-${scope}`}
                  type="checkbox"
                  name="scope"
                  value={scope}
                  defaultChecked={scope === 'read'}
                  aria-describedby={`${id}-${scope}-hint`}
                  onChange={() => setNoScope(false)}
                  className="h-4 w-4 accent-[var(--c-accent)]"
                />
                <label htmlFor={`${id}-${scope}`} className="font-mono text-sm font-medium">
                  {scope}
                </label>
                <span id={`${id}-${scope}-hint`} className="text-xs text-muted">
                  ({SCOPE_HINT[scope]})
                </span>
              </span>
            ))}
          </div>
        </fieldset>
        <button type="submit" disabled={create.isPending} className={primaryButton}>
          {create.isPending && <Spinner />}
          Create API key
        </button>
      </form>
      <div aria-live="polite" className="mt-2 empty:hidden">
        {noScope && (
          <p id={`${id}-scope-error`} role="alert" className={errorText}>
            Choose at least one scope.
          </p>
        )}
        {create.isError && (
          <p role="alert" className={errorText}>
            Could not create the key: {create.error.message}
          </p>
        )}
      </div>
    </section>
  );
}
