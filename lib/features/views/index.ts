// Saved views of the trace list, per owner (owner.ts): list, save, delete.
export { deleteView } from './delete';
export { VIEW_LIMITS } from './limits';
export { listViews } from './list';
export { saveView } from './save';
export type { SavedView, SaveViewInput } from './types';
export { parseSaveViewBody } from './validate';
