import { Skeleton } from '@/components/ui/states';

// Shown while the trace loads: the header, the tabs, the timeline and the side panel.
export default function Loading() {
  return (
    <div className="flex h-[calc(100dvh-5.5rem)] min-h-[40rem] flex-col gap-3" aria-busy="true" aria-label="Loading trace">
      <Skeleton className="h-4 w-48" />
      <Skeleton className="h-7 w-96" />
      <Skeleton className="h-16 w-full" />
      <Skeleton className="h-5 w-2/3" />
      <div className="grid min-h-0 flex-1 grid-cols-[minmax(0,1fr)_22rem] gap-4 xl:grid-cols-[minmax(0,1fr)_27rem]">
        <div className="flex flex-col gap-2">
          <Skeleton className="h-8 w-72" />
          {Array.from({ length: 14 }, (_, i) => (
            <Skeleton key={i} className="h-6" />
          ))}
        </div>
        <Skeleton className="h-full" />
      </div>
    </div>
  );
}
