'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { fetchJson } from '@/lib/client/traces';
import { jsonOrText, jsonTextarea } from './fields';
import { errorText, fieldLabel, input, primaryButton, secondaryButton } from '@/components/settings/styles';



function post(url: string, body: unknown) {
  return fetchJson<{ success: true; count: number }>(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** One item typed in: its input and expected output, each JSON where it parses, else text. */
export function AddItemForm({ dataset }: { dataset: string }) {
  const router = useRouter();
  const [itemInput, setItemInput] = useState('');
  const [expected, setExpected] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      await post(`/api/datasets/${encodeURIComponent(dataset)}/items`, { items: [{ input: jsonOrText(itemInput) ?? null, expectedOutput: jsonOrText(expected) }] });
      setItemInput('');
      setExpected('');
      router.refresh();
    } catch (err) {
      setProblem((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form aria-label="Add item" onSubmit={submit} className="flex flex-col gap-2">
      <label className="flex flex-col gap-1">
        <span className={fieldLabel}>Input (JSON, or text)</span>
        <textarea className={jsonTextarea} value={itemInput} onChange={(e) => setItemInput(e.target.value)} required />
      </label>
      <label className="flex flex-col gap-1">
        <span className={fieldLabel}>Expected output (optional)</span>
        <textarea className={jsonTextarea} value={expected} onChange={(e) => setExpected(e.target.value)} />
      </label>
      <div>
        <button type="submit" className={primaryButton} disabled={busy}>
          Add item
        </button>
      </div>
      {problem && (
        <p role="alert" className={errorText}>
          {problem}
        </p>
      )}
    </form>
  );
}

/** A JSON Lines or CSV file of items (columns input, expectedOutput, metadata), all or nothing. */
export function UploadItemsForm({ dataset }: { dataset: string }) {
  const router = useRouter();
  const [file, setFile] = useState<File | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!file) return;
    setBusy(true);
    setMessage(null);
    try {
      const format = /\.csv$/i.test(file.name) ? 'csv' : 'jsonl';
      const { count } = await post(`/api/datasets/${encodeURIComponent(dataset)}/items/upload`, { format, text: await file.text() });
      setMessage({ ok: true, text: `${count} item${count === 1 ? '' : 's'} added or updated from ${file.name}` });
      router.refresh();
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form aria-label="Upload items" onSubmit={submit} className="flex flex-col gap-2">
      <label className="flex flex-col gap-1">
        <span className={fieldLabel}>JSON Lines (.jsonl) or CSV (.csv) file: input, expectedOutput, metadata</span>
        <input type="file" accept=".jsonl,.ndjson,.json,.csv" className={input} onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
      </label>
      <div>
        <button type="submit" className={secondaryButton} disabled={busy || !file}>
          Upload
        </button>
      </div>
      {message && (
        <p role={message.ok ? 'status' : 'alert'} className={message.ok ? 'text-sm text-muted' : errorText}>
          {message.text}
        </p>
      )}
    </form>
  );
}
