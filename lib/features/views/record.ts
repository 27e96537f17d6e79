// A stored view as the API answers it (the owner stays on the server).
import type { SavedView as Row } from '@/lib/generated/prisma/client';
import type { SavedView } from './types';

export function toSavedView(row: Row): SavedView {
  return {
    id: row.id,
    name: row.name,
    query: row.query,
    columns: row.columns,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
