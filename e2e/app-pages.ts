// Every page of the app, enumerated from the file system (app/**/page.*), so a page added
// later is covered by the specs that loop over them without anyone listing it.
import { readdirSync } from 'node:fs';
import path from 'node:path';

/** Pages this product has today: a loop over appPages() must find them (or it tests nothing). */
export function knownPages(sampleId: string): string[] {
  const id = encodeURIComponent(sampleId);
  return ['/', '/traces', `/traces/${id}`, '/sessions', `/sessions/${id}`, '/insights', '/insights/paths', '/traces/compare', '/settings/users', '/settings/api-keys', '/settings/scores', '/settings/evaluators', '/review', '/sign-in', '/datasets', `/datasets/${id}`, '/experiments/compare'];
}

/** Every page's URL: route groups dropped, dynamic segments filled in (`[id]` with sampleId). */
export function appPages(sampleId: string): string[] {
  const urls: string[] = [];
  const walk = (dir: string, segments: string[]) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      // Private folders (_lib) and parallel-route slots (@x) are not URL segments of their own.
      if (entry.isDirectory() && !entry.name.startsWith('_') && !entry.name.startsWith('@')) {
        walk(path.join(dir, entry.name), [...segments, entry.name]);
      } else if (entry.isFile() && /^page\.(tsx|ts|jsx|js|mdx)$/.test(entry.name)) {
        const parts = segments.flatMap((s) => {
          if (/^\(.*\)$/.test(s)) return []; // a route group
          if (/^\[\[\.\.\..+\]\]$/.test(s)) return []; // an optional catch-all, empty
          if (/^\[\.\.\..+\]$/.test(s)) return ['a', 'b']; // a catch-all
          if (/^\[.+\]$/.test(s)) return [encodeURIComponent(sampleId)];
          return [s];
        });
        urls.push(`/${parts.join('/')}`);
      }
    }
  };
  walk(path.resolve('app'), []);
  return [...new Set(urls)].sort();
}
