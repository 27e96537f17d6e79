// The endpoint address as the client addressed it, for the WSDL's soap:address.
// Behind a proxy X-Forwarded-Proto/-Host win; otherwise the Host header; the
// request URL's own origin is the last resort (it is what the server bound to).

function firstValue(header: string | null): string | undefined {
  const v = header?.split(',')[0]?.trim();
  return v ? v : undefined;
}

// A host[:port] (name, IPv4 or [IPv6]); anything else is ignored rather than echoed
// into the WSDL.
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

export function endpointAddress(headers: Headers, requestUrl: string, path = '/api/soap'): string {
  const url = new URL(requestUrl);
  const protoHeader = firstValue(headers.get('x-forwarded-proto'))?.toLowerCase();
  const proto = protoHeader === 'http' || protoHeader === 'https' ? protoHeader : url.protocol.replace(/:$/, '');
  const candidates = [firstValue(headers.get('x-forwarded-host')), firstValue(headers.get('host'))];
  const host = candidates.find((h) => h !== undefined && HOST.test(h)) ?? url.host;
  return `${proto}://${host}${path}`;
}
