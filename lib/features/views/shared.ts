// lib/features/views: what the browser may import too (types and pure helpers, no server module).
export { type SavedView, type SaveViewInput } from './types';
