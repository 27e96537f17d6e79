import { getDynamicParam } from 'next/dist/shared/lib/router/utils/get-dynamic-param';
import { describe, expect, it } from 'vitest';
import { pageParam } from './params';

// Next's internals, pinned by package.json's exact version: what a page receives for a
// dynamic segment [id] matched (and decoded) from the URL.
const asPageGetsIt = (id: string) => getDynamicParam({ id }, 'id', 'd', null, []).value as string;

describe('pageParam', () => {
  it.each(['plain-id', 'a b', 'a+b', 'a/b', 'a%2Fb', 'é ü 東京', '100%', '?#&='])('gives back the id %j from what Next hands the page', (id) => {
    expect(pageParam(asPageGetsIt(id))).toBe(id);
  });

  it('names nothing for a segment that is not valid percent-encoding', () => {
    expect(pageParam('%ff')).toBeNull();
    expect(pageParam('a%E0%A4%A')).toBeNull();
  });
});
