import { afterEach, describe, expect, it } from 'vitest';
import { getTrustedProxies, validateConfig } from '@/lib/core/config';
import { clientAddress, PEER_HEADER, peerHeaderValue } from './client-address';

const saved = process.env.TRUSTED_PROXIES;
afterEach(() => {
  if (saved === undefined) delete process.env.TRUSTED_PROXIES;
  else process.env.TRUSTED_PROXIES = saved;
});

function trusted(value: string) {
  process.env.TRUSTED_PROXIES = value;
  return getTrustedProxies();
}

function from(socket: string | null, forwardedFor?: string): Headers {
  const headers = new Headers();
  if (socket !== null) headers.set(PEER_HEADER, peerHeaderValue(socket));
  if (forwardedFor !== undefined) headers.set('x-forwarded-for', forwardedFor);
  return headers;
}

describe('clientAddress', () => {
  it.each([
    ['no TRUSTED_PROXIES: the socket, whatever X-Forwarded-For says', '', from('203.0.113.9', '192.0.2.1'), '203.0.113.9'],
    ['an IPv4 client of a dual-stack socket', '', from('::ffff:203.0.113.9'), '203.0.113.9'],
    ['IPv6 is lower-cased', '', from('2001:DB8::1'), '2001:db8::1'],
    ['a socket that is no trusted proxy: X-Forwarded-For is ignored', '10.0.0.0/8', from('203.0.113.9', '192.0.2.1'), '203.0.113.9'],
    ['one trusted proxy: the hop it added', '10.0.0.1', from('10.0.0.1', '192.0.2.1'), '192.0.2.1'],
    ['a client that writes its own hops first: the right-most untrusted one', '10.0.0.0/8', from('10.0.0.1', '198.51.100.1, 192.0.2.1'), '192.0.2.1'],
    ['two trusted proxies: past both', '10.0.0.0/8, 172.16.0.0/12', from('10.0.0.1', '198.51.100.1, 192.0.2.1, 172.16.5.5'), '192.0.2.1'],
    ['repeated X-Forwarded-For headers read as one list', '10.0.0.1', (() => {
      const h = from('10.0.0.1');
      h.append('x-forwarded-for', '198.51.100.1');
      h.append('x-forwarded-for', '192.0.2.1');
      return h;
    })(), '192.0.2.1'],
    ['IPv6 proxies by CIDR', 'fd00::/8', from('fd00::5', '2001:db8::7'), '2001:db8::7'],
    ['a trusted proxy and no X-Forwarded-For: the proxy', '10.0.0.1', from('10.0.0.1'), '10.0.0.1'],
    ['every hop trusted: the left-most', '10.0.0.0/8', from('10.0.0.1', '10.0.0.3, 10.0.0.2'), '10.0.0.3'],
    ['a hop that is no address stops the walk at the last proxy', '10.0.0.0/8', from('10.0.0.1', '192.0.2.1, evil, 10.0.0.2'), '10.0.0.2'],
    ['no socket seen: unknown', '', from(null, '192.0.2.1'), null],
  ])('%s', (_name, proxies, headers, expected) => {
    expect(clientAddress(headers, trusted(proxies))).toBe(expected);
  });

  it('a PEER_HEADER a client wrote, without this process\'s token, is no address', () => {
    for (const forged of ['192.0.2.1', `x ${'192.0.2.1'}`, peerHeaderValue('192.0.2.1').replace(/^./, '#')]) {
      expect(clientAddress(new Headers({ [PEER_HEADER]: forged }), [])).toBeNull();
    }
  });
});

describe('TRUSTED_PROXIES', () => {
  it('takes addresses and CIDR ranges of both families', () => {
    expect(trusted(' 10.0.0.0/8 , 192.0.2.7, ::1, fd00::/8 ')).toEqual([
      { address: '10.0.0.0', prefix: 8, family: 'ipv4' },
      { address: '192.0.2.7', prefix: 32, family: 'ipv4' },
      { address: '::1', prefix: 128, family: 'ipv6' },
      { address: 'fd00::', prefix: 8, family: 'ipv6' },
    ]);
  });

  it.each(['proxy.internal', '10.0.0.0/33', 'fd00::/129', '10.0.0.0/8/1', '10.0.0.0/', '10.0.0.0/x', '*', '10.0.0.256'])(
    'stops the server at start on %j, naming the variable',
    (value) => {
      process.env.TRUSTED_PROXIES = value;
      expect(() => validateConfig()).toThrow(/^TRUSTED_PROXIES entries must be IP addresses or CIDR ranges/);
    },
  );
});
