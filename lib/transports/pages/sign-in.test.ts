import { describe, expect, it } from 'vitest';
import { safeNext, signInPath } from './sign-in';

describe('safeNext: where a signed-in browser is sent, parsed as a browser parses it', () => {
  it.each([
    ['/traces/abc', '/traces/abc'],
    ['/traces?sort=cost&q=a%20b#top', '/traces?sort=cost&q=a%20b#top'],
    ['/sessions/s%2F1', '/sessions/s%2F1'],
    ['/insights/../traces', '/traces'],
  ])('keeps a path here: %j', (next, expected) => {
    expect(safeNext(next)).toBe(expected);
  });

  it.each([
    // The URL parser drops tabs and newlines, and reads a backslash as a slash: each is //evil.example.
    ['a tab between the slashes', '/\t/evil.example/'],
    ['a newline between the slashes', '/\n/evil.example/'],
    ['a carriage return between the slashes', '/\r/evil.example/'],
    ['a backslash', '/\\evil.example/'],
    ['two backslashes', '\\\\evil.example/'],
    ['a protocol-relative URL', '//evil.example/'],
    ['a dot segment before two slashes', '/.//evil.example/'],
    ['a tab inside a dot segment', '/.\t//evil.example/'],
    ['an absolute URL', 'https://evil.example/'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a scheme after spaces', ' https://evil.example/'],
    ['a relative path', 'traces'],
    ['nothing', ''],
  ])('sends %s to /traces', (_name, next) => {
    expect(safeNext(next)).toBe('/traces');
  });

  it('gives a path without control characters, so it can go in a Location header', () => {
    for (const next of ['/tra\r\nces', '/traces\r\nSet-Cookie: x=1', '/traces?q=\u0000\u007f', '/tr\taces#\n']) {
      const target = safeNext(next);
      expect(target.startsWith('/') && !target.startsWith('//')).toBe(true);
      expect(target).not.toMatch(/[\u0000-\u001f\u007f\\]/);
      expect(() => new Headers({ location: target })).not.toThrow();
    }
  });

  it('signInPath carries the checked path, or none', () => {
    expect(signInPath('/traces/a b')).toBe(`/sign-in?next=${encodeURIComponent('/traces/a%20b')}`);
    expect(signInPath('/\t/evil.example/')).toBe('/sign-in');
  });
});
