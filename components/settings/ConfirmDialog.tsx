'use client';

import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Spinner } from '@/components/ui/states';
import { dangerButton, errorText, secondaryButton } from './styles';

/**
 * Asks before something that cannot be undone (removing a person, revoking a key). A
 * native modal <dialog>: focus stays inside, Escape cancels, focus returns after.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  pending,
  error,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pending: boolean;
  error: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onClose={onCancel}
      className="m-auto w-full max-w-md rounded-lg border border-border bg-bg p-5 text-fg shadow-xl backdrop:bg-black/50"
    >
      {open && (
        <>
          <h2 id={`${id}-title`} className="text-base font-semibold">
            {title}
          </h2>
          <div id={`${id}-body`} className="mt-2 text-muted">
            {children}
          </div>
          {error && (
            <p role="alert" className={`mt-3 ${errorText}`}>
              {error}
            </p>
          )}
          <div className="mt-5 flex justify-end gap-2">
            {/* The safe choice has the focus. */}
            <button type="button" autoFocus onClick={onCancel} className={secondaryButton}>
              Cancel
            </button>
            <button type="button" onClick={onConfirm} disabled={pending} className={dangerButton}>
              {pending && <Spinner />}
              {confirmLabel}
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
