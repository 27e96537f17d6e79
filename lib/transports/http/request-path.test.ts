import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repairPathEncoding, repairRequestPaths } from './request-path';

describe('repairPathEncoding', () => {
  it.each([
    ['/api/traces/%ff', '/api/traces/%25ff'],
    ['/traces/%zz/x', '/traces/%25zz/x'],
    ['/traces/a%ffb%20c', '/traces/a%25ffb%2520c'],
    ['/traces/%E2%82', '/traces/%25E2%2582'],
    ['/traces/%ff?next=%ff', '/traces/%25ff?next=%ff'],
    ['/traces/%', '/traces/%25'],
  ])('escapes the percent signs of an undecodable segment: %s', (target, repaired) => {
    expect(repairPathEncoding(target)).toBe(repaired);
    expect(() => repairPathEncoding(target).split('?')[0].split('/').map(decodeURIComponent)).not.toThrow();
  });

  it.each(['/traces/a%20b', '/traces/a%2Fb', '/sessions/caf%C3%A9', '/api/traces?q=%ff', '/', '/api/health'])('leaves a valid target as sent: %s', (target) => {
    expect(repairPathEncoding(target)).toBe(target);
  });
});

describe('repairRequestPaths, on a real server', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    repairRequestPaths();
    server = createServer((req, res) => res.end(req.url));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const seen = (path: string) =>
    new Promise<string>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve(body));
      });
      req.on('error', reject);
      req.end();
    });

  it('hands the handler the repaired path, and a valid one unchanged', async () => {
    expect(await seen('/api/traces/%ff')).toBe('/api/traces/%25ff');
    expect(await seen('/traces/a%20b?x=%ff')).toBe('/traces/a%20b?x=%ff');
  });
});
