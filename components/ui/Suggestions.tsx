'use client';

import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useState } from 'react';
import { traceQueries } from '@/lib/client/traces';
import type { SuggestField } from '@/lib/features/traces/shared';

/** What was typed, once it has rested this long, asks for suggestions. */
const SUGGEST_DELAY_MS = 150;

/**
 * The stored values of `field` that start with `text`, for a native <datalist> with this id:
 * asked while the field has focus (GET /api/traces/suggest), after a short pause in typing.
 */
export function SuggestionList({ id, field, text, active }: { id: string; field: SuggestField; text: string; active: boolean }) {
  const [asked, setAsked] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setAsked(text), SUGGEST_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const prefix = useDeferredValue(asked);
  const query = useQuery({ ...traceQueries.suggest(field, prefix), enabled: active });
  // A value typed in full needs no suggestion of itself.
  const values = (query.data ?? []).filter((v) => v !== text);
  return (
    <datalist id={id} data-suggest={field}>
      {values.map((v) => (
        <option key={v} value={v} />
      ))}
    </datalist>
  );
}

/** Props that make an <input> offer its datalist and track focus for SuggestionList. */
export function useSuggesting(listId: string): { active: boolean; inputProps: { list: string; onFocus: () => void } } {
  const [active, setActive] = useState(false);
  return { active, inputProps: { list: listId, onFocus: () => setActive(true) } };
}
