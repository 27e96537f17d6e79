import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { Providers } from './providers';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Crossroads', template: '%s · Crossroads' },
  description: 'Traces and decisions of AI agents',
};

export const viewport: Viewport = {
  colorScheme: 'light dark',
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#ffffff' },
    { media: '(prefers-color-scheme: dark)', color: '#0b1120' },
  ],
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // next-themes sets data-theme on <html> before React hydrates: the attribute differs by design.
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* public/favicon.ico, for browsers without SVG icons; 32x32 so the others still prefer app/icon.svg. */}
        <link rel="icon" href="/favicon.ico" sizes="32x32" />
      </head>
      <body className="font-sans text-sm antialiased">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-bg focus:px-3 focus:py-2"
        >
          Skip to content
        </a>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
