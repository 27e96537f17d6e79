'use client';

import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/**
 * A button that opens a panel below it (the disclosure pattern, with a non-modal dialog):
 * Escape or a click outside closes it, Escape gives the focus back to the button, and the
 * panel's first field takes the focus when it opens.
 */
export function Popover({
  label,
  badge,
  title,
  panelLabel,
  align = 'left',
  width = 'sm:w-80',
  children,
}: {
  label: ReactNode;
  /** A count beside the label (filters set, columns hidden). */
  badge?: number;
  title?: string;
  panelLabel: string;
  /** Which edge of the button the panel lines up with; 'auto': the left, unless the panel would then run off the window's right side. */
  align?: 'left' | 'right' | 'auto';
  /** The panel's width from the sm breakpoint up, as a whole class (`sm:w-80`). */
  width?: string;
  children: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [side, setSide] = useState<'left' | 'right'>(align === 'right' ? 'right' : 'left');
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const id = useId();
  const buttonId = `${id}-button`;

  const close = () => {
    setOpen(false);
    document.getElementById(buttonId)?.focus();
  };

  // Measured before paint: the panel never shows on the wrong side first.
  useLayoutEffect(() => {
    if (!open || align !== 'auto') return;
    const box = panel.current?.getBoundingClientRect();
    if (box && side === 'left' && box.right > document.documentElement.clientWidth) setSide('right');
  }, [open, align, side]);

  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLElement>('input, select, button, [tabindex="0"]')?.focus();
    const onPointer = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  return (
    <div className="relative">
      <button
        ref={button}
        id={buttonId}
        type="button"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        title={title}
        onClick={() => {
          if (align === 'auto') setSide('left');
          setOpen((o) => !o);
        }}
        className="inline-flex h-8 items-center gap-1.5 rounded-md border border-border-strong bg-bg px-2.5 text-sm font-medium text-fg hover:bg-surface-2"
      >
        {label}
        {badge ? (
          <span className="rounded-full bg-accent px-1.5 text-xs leading-5 text-bg tabular" aria-label={`(${badge} set)`}>
            {badge}
          </span>
        ) : null}
        <svg aria-hidden="true" width="10" height="10" viewBox="0 0 10 10" fill="none" stroke="currentColor" strokeWidth="1.5">
          <path d="m2 3.5 3 3 3-3" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </button>
      {open && (
        <div
          ref={panel}
          id={id}
          role="dialog"
          aria-label={panelLabel}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              e.stopPropagation();
              close();
            }
          }}
          // On a phone the panel is a sheet along the bottom edge, so it never runs off the side.
          className={`z-30 max-h-[80vh] overflow-y-auto rounded-lg border border-border bg-bg p-3 shadow-lg max-sm:fixed max-sm:inset-x-2 max-sm:bottom-2 sm:absolute sm:mt-1 ${width} ${side === 'right' ? 'sm:right-0' : 'sm:left-0'}`}
        >
          {children(close)}
        </div>
      )}
    </div>
  );
}
