'use client';

import { useRouter } from 'next/navigation';
import { useId, useState, type FormEvent } from 'react';
import { fetchJson } from '@/lib/client/traces';
import { errorText, fieldLabel, input, primaryButton } from '@/components/settings/styles';

/** Names a new dataset (letters, digits, '.', '_', '-') and opens it. */
export function CreateDatasetForm() {
  const id = useId();
  const router = useRouter();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      await fetchJson('/api/datasets', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: name.trim(), description: description.trim() || null }),
      });
      router.push(`/datasets/${encodeURIComponent(name.trim())}`);
    } catch (err) {
      setProblem((err as Error).message);
      setBusy(false);
    }
  };
  return (
    <form aria-label="New dataset" onSubmit={submit} className="grid gap-3 rounded-lg border border-border bg-surface p-4 sm:grid-cols-[minmax(0,16rem)_minmax(0,1fr)_auto] sm:items-end">
      <label className="flex flex-col gap-1">
        <span className={fieldLabel}>Name</span>
        <input id={`${id}-name`} className={input} value={name} onChange={(e) => setName(e.target.value)} placeholder="support-questions" required />
      </label>
      <label className="flex flex-col gap-1">
        <span className={fieldLabel}>Description (optional)</span>
        <input className={input} value={description} onChange={(e) => setDescription(e.target.value)} />
      </label>
      <button type="submit" className={primaryButton} disabled={busy}>
        Create dataset
      </button>
      {problem && (
        <p role="alert" className={`${errorText} sm:col-span-3`}>
          {problem}
        </p>
      )}
    </form>
  );
}
