import { InsightsSkeleton } from '@/components/insights/InsightsView';

// Shown while the server computes the figures; shaped like the page so nothing jumps.
export default function Loading() {
  return (
    <div className="flex flex-col gap-4" aria-busy="true">
      <div className="flex h-7 items-center">
        <h1 className="text-xl font-semibold tracking-tight">Insights</h1>
      </div>
      <div className="h-[7.5rem]" />
      <InsightsSkeleton />
    </div>
  );
}
