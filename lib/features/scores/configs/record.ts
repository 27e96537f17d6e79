// A stored config as the API shows it.
import type { ScoreConfigRecord, ScoreDataType } from '@/lib/features/scores/types';

export interface ConfigRow {
  id: string;
  name: string;
  dataType: string;
  categories: string[];
  min: number | null;
  max: number | null;
  description: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export function toConfigRecord(row: ConfigRow): ScoreConfigRecord {
  return {
    id: row.id,
    name: row.name,
    dataType: row.dataType as ScoreDataType,
    categories: row.categories,
    min: row.min,
    max: row.max,
    description: row.description,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A unique-constraint violation on the name, as Prisma reports it. */
export function isDuplicateName(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'P2002';
}
