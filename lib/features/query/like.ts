// LIKE patterns from user text: unescaped, "50%" or "a_b" would be wildcards and match
// far more than the substring the user typed.
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
