'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { settingsQueries, settingsRequests, type ApiKeyRecord, type CreatedApiKey } from '@/lib/client/settings';
import { CopyButton } from '@/components/ui/CopyButton';
import { ErrorState, Spinner } from '@/components/ui/states';
import { RelativeTime, useHydrationMarker } from '@/components/ui/time';
import { ConfirmDialog } from './ConfirmDialog';
import { CreateApiKeyForm } from './CreateApiKeyForm';
import { rowDangerButton, secondaryButton, td, th } from './styles';

/** The key just made, shown this once with a copy button: the server keeps only its hash. */
function NewKeyPanel({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [created.id]);
  return (
    <section
      aria-labelledby="new-key-title"
      data-testid="new-api-key"
      className="rounded-lg border border-amber-400 bg-amber-50 p-4 text-amber-950 dark:border-amber-600 dark:bg-amber-950 dark:text-amber-100"
    >
      <h2 id="new-key-title" ref={heading} tabIndex={-1} className="text-base font-semibold">
        Your new key “{created.name}”
      </h2>
      <p className="mt-1">
        <strong>Copy it now: it will not be shown again.</strong> Crossroads keeps only its hash; if it is lost, revoke it and
        create another.
      </p>
      <div className="mt-3 flex items-center gap-2">
        <code data-testid="api-key-value" className="min-w-0 flex-1 rounded-md border border-amber-300 bg-bg px-3 py-2 font-mono text-sm break-all text-fg dark:border-amber-700">
          {created.key}
        </code>
        <CopyButton text={created.key} label="Copy key" className="h-9 bg-bg px-3 text-sm text-fg" />
      </div>
      <p className="mt-3 text-sm">
        Send it as <code className="font-mono">Authorization: Bearer &lt;key&gt;</code> (or as the password of Basic
        authentication, for reads). Scopes: {created.scopes.join(', ')}.
      </p>
      <button type="button" onClick={onDone} className={`mt-3 ${secondaryButton}`}>
        Done, I have copied it
      </button>
    </section>
  );
}

/** /settings/api-keys: keys for programs, created here, listed without the key, revoked at once. */
export function ApiKeysView({ serverNow, configuredKeys }: { serverNow: number; configuredKeys: number }) {
  useHydrationMarker('api-keys');
  const queryClient = useQueryClient();
  const keys = useQuery(settingsQueries.apiKeys());
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyRecord | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: settingsQueries.apiKeys().queryKey });

  const revoke = useMutation({
    mutationFn: (key: ApiKeyRecord) => settingsRequests.revokeApiKey(key.id),
    onSuccess: async (_answer, key) => {
      if (created?.id === key.id) setCreated(null);
      await refresh();
      setRevoking(null);
    },
  });

  const rows = keys.data ?? [];
  return (
    <div className="flex max-w-5xl flex-col gap-6">
      <div>
        <h1 className="text-xl font-semibold tracking-tight">API keys</h1>
        <p className="mt-1 text-muted">
          Keys let programs send traces (<code className="font-mono text-fg">ingest</code>), read them (
          <code className="font-mono text-fg">read</code>) or delete them (<code className="font-mono text-fg">delete</code>). Give
          each program its own key, with only the scopes it needs.
        </p>
      </div>

      <CreateApiKeyForm
        onCreated={(key) => {
          setCreated(key);
          return refresh();
        }}
      />
      {created && <NewKeyPanel created={created} onDone={() => setCreated(null)} />}

      <section aria-labelledby="keys-title" className="flex flex-col gap-2">
        <div className="flex items-center gap-3">
          <h2 id="keys-title" className="text-base font-semibold">
            Keys
          </h2>
          {keys.isFetching && <Spinner label="Loading API keys" className="text-muted" />}
        </div>
        {keys.isError && !keys.data ? (
          <ErrorState title="Could not load the API keys" message={keys.error.message} onRetry={() => void keys.refetch()} retrying={keys.isFetching} />
        ) : rows.length === 0 ? (
          <p className="rounded-lg border border-dashed border-border-strong bg-surface p-6 text-center text-muted">
            No API keys yet. Create one above for each program that sends or reads traces.
          </p>
        ) : (
          <div className="overflow-hidden rounded-lg border border-border">
            <table className="w-full border-collapse text-sm">
              <thead className="border-b border-border bg-surface">
                <tr>
                  <th scope="col" className={th}>Name</th>
                  <th scope="col" className={th}>Key</th>
                  <th scope="col" className={th}>Scopes</th>
                  <th scope="col" className={th}>Created</th>
                  <th scope="col" className={th}>Last used</th>
                  <th scope="col" className={th}>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((key) => (
                  <tr key={key.id} className="border-b border-border last:border-b-0">
                    <td className={`${td} font-medium`}>{key.name}</td>
                    <td className={td}>
                      <code className="font-mono text-xs" title="The key's first characters">
                        {key.start}…
                      </code>
                    </td>
                    <td className={td}>
                      <span className="flex gap-1">
                        {key.scopes.map((s) => (
                          <span key={s} className="rounded bg-surface-2 px-1.5 py-px font-mono text-xs">
                            {s}
                          </span>
                        ))}
                      </span>
                    </td>
                    <td className={`${td} text-muted`}>
                      <RelativeTime iso={key.createdAt} serverNow={serverNow} />
                    </td>
                    <td className={`${td} text-muted`}>{key.lastUsedAt ? <RelativeTime iso={key.lastUsedAt} serverNow={serverNow} /> : 'never'}</td>
                    <td className={`${td} text-right`}>
                      <button
                        type="button"
                        aria-label={`Revoke ${key.name}`}
                        onClick={() => {
                          revoke.reset();
                          setRevoking(key);
                        }}
                        className={rowDangerButton}
                      >
                        Revoke
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {configuredKeys > 0 && (
          <p className="text-xs text-muted">
            {configuredKeys === 1 ? 'One key' : `${configuredKeys} keys`} from the server&apos;s <code className="font-mono">API_KEYS</code>{' '}
            variable {configuredKeys === 1 ? 'is' : 'are'} not listed: {configuredKeys === 1 ? 'it has' : 'they have'} the ingest and read scopes
            and {configuredKeys === 1 ? 'is' : 'are'} changed in the environment.
          </p>
        )}
      </section>

      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke “${revoking?.name ?? ''}”?`}
        confirmLabel="Revoke key"
        pending={revoke.isPending}
        error={revoke.error?.message ?? null}
        onConfirm={() => revoking && revoke.mutate(revoking)}
        onCancel={() => setRevoking(null)}
      >
        Programs using this key are refused from their next request. This cannot be undone.
      </ConfirmDialog>
    </div>
  );
}
