// The viewer's URLs for sessions. Client-safe; ids are client-supplied and may hold any character.
import type { SessionListParams } from './types';

export function sessionPageHref(id: string): string {
  return `/sessions/${encodeURIComponent(id)}`;
}

/** The sessions list with these parameters, defaults left out. */
export function sessionListHref(params: Partial<SessionListParams>): string {
  const q = new URLSearchParams();
  if (params.search !== undefined) q.set('search', params.search);
  if (params.userId !== undefined) q.set('userId', params.userId);
  if (params.status) q.set('status', params.status);
  if (params.range) q.set('range', params.range);
  if (params.from) q.set('from', params.from);
  if (params.to) q.set('to', params.to);
  if (params.page && params.page !== 1) q.set('page', String(params.page));
  if (params.limit && params.limit !== 20) q.set('limit', String(params.limit));
  const s = q.toString();
  return `/sessions${s ? `?${s}` : ''}`;
}
