import { describe, expect, it } from 'vitest';
import { endpointAddress } from './origin';

const at = (headers: Record<string, string>, url = 'http://0.0.0.0:3000/api/soap?wsdl') => endpointAddress(new Headers(headers), url);

describe('endpointAddress', () => {
  it('uses the Host header as the client addressed the server', () => {
    expect(at({ host: 'soap.example.com:8080' })).toBe('http://soap.example.com:8080/api/soap');
    expect(at({ host: '[::1]:3000' })).toBe('http://[::1]:3000/api/soap');
  });

  it('prefers X-Forwarded-Host and X-Forwarded-Proto behind a proxy (first value of a list)', () => {
    expect(at({ host: 'internal:3000', 'x-forwarded-host': 'api.example.com, proxy2', 'x-forwarded-proto': 'https' })).toBe(
      'https://api.example.com/api/soap',
    );
    expect(at({ host: 'internal:3000', 'x-forwarded-proto': 'HTTPS' })).toBe('https://internal:3000/api/soap');
  });

  it('ignores header values that are not a host or a known protocol, falling back to the request URL', () => {
    expect(at({ host: 'evil.com/"><x', 'x-forwarded-proto': 'javascript' })).toBe('http://0.0.0.0:3000/api/soap');
    expect(at({}, 'https://bound.example:9443/api/soap?WSDL')).toBe('https://bound.example:9443/api/soap');
  });
});
