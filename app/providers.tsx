'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { isRetryable } from '@/lib/client/traces';
import { ThemeProvider } from '@/components/app/ThemeProvider';

function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Pages arrive with server-rendered data; without a stale time every hydrated
        // query would refetch at once on mount.
        staleTime: 30_000,
        // One quick retry for server and network failures; a 4xx will not change.
        retry: (failureCount, error) => failureCount < 1 && isRetryable(error),
        retryDelay: 500,
        refetchOnWindowFocus: false,
      },
    },
  });
}

export function Providers({ children }: { children: ReactNode }) {
  // One client per browser tab (and per server render), never shared between requests.
  const [queryClient] = useState(makeQueryClient);
  return (
    <ThemeProvider>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </ThemeProvider>
  );
}
