import type { Metadata, Viewport } from 'next';
import Link from 'next/link';
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
    <html lang="en">
      <body className="font-sans text-sm antialiased">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-bg focus:px-3 focus:py-2"
        >
          Skip to content
        </a>
        <header className="border-b border-border bg-surface">
          <div className="mx-auto flex h-12 max-w-[1600px] items-center gap-6 px-4 xl:px-6">
            <Link href="/traces" className="flex items-center gap-2 font-semibold tracking-tight">
              <Logo />
              Crossroads
            </Link>
            <nav aria-label="Main">
              <Link href="/traces" className="rounded px-2 py-1 text-muted hover:text-fg">
                Traces
              </Link>
            </nav>
          </div>
        </header>
        <Providers>
          <main id="main" className="mx-auto max-w-[1600px] px-4 py-5 xl:px-6">
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}

function Logo() {
  // A fork in the road: the product is about the choices an agent makes.
  return (
    <svg aria-hidden="true" width="20" height="20" viewBox="0 0 20 20" className="text-accent">
      <path d="M10 18V10M10 10L4 3M10 10l6-7" stroke="currentColor" strokeWidth="2.2" fill="none" strokeLinecap="round" />
      <circle cx="10" cy="10" r="2.2" fill="currentColor" />
    </svg>
  );
}
