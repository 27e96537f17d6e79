// lib/features/sessions: what the browser may import too (types and pure helpers, no server module).
export { sessionListHref, sessionPageHref } from './links';
export { type SessionDetail, type SessionList, type SessionListParams, type SessionTrace } from './types';
