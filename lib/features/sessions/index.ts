// Sessions: the traces that share a sessionId, read as one conversation.
import 'server-only';
export { getSessionOrThrow } from './detail';
export { listSessions } from './list';
export { parseSessionListParams } from './params';
export type { SessionDetail, SessionList, SessionListParams, SessionSummary, SessionTrace } from './types';
