/** A thumb, up or down: the value of a BOOLEAN score. */
export function ThumbIcon({ up, size = 12 }: { up: boolean; size?: number }) {
  return (
    <svg aria-hidden="true" width={size} height={size} viewBox="0 0 16 16" className={up ? '' : 'rotate-180'}>
      <path
        d="M2 7h3v7H2zM6 14h5.6a1.5 1.5 0 0 0 1.47-1.2l.9-4.5A1.5 1.5 0 0 0 12.5 6.5H9.5l.5-2.6A1.4 1.4 0 0 0 8.6 2.3L6 7z"
        fill="currentColor"
      />
    </svg>
  );
}
