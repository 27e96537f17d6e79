import { TableSkeleton } from '@/components/traces/list/TraceListView';

// Shown while the server reads the first page; shaped like the page so nothing jumps.
export default function Loading() {
  return (
    <div className="flex flex-col gap-4" aria-busy="true">
      <div className="flex h-7 items-center">
        <h1 className="text-xl font-semibold tracking-tight">Traces</h1>
      </div>
      <div className="h-[3.25rem]" />
      <TableSkeleton rows={12} />
    </div>
  );
}
