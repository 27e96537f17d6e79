// The SOAP service as plain functions over a request's text and headers, so the route
// stays thin and tests can run it on any database: the envelope parsed once and checked,
// the caller's key, the parts read from the same tree and normalised, the call, the
// typed response or a fault.
import 'server-only';
import { checkEnvelope, readCaller } from './envelope';
import { INTERNAL_FAULT, SoapFault, faultResponse, type SoapHttpResponse } from './fault';
import { normalizeArgs } from './args';
import { Meter } from './meter';
import { authenticateCaller, executeCall, type ServiceDeps } from './operations';
import { endpointAddress } from './origin';
import { readRawParts } from './parts';
import { resultResponse } from './response';
import { SOAPENC_XSD } from './soapenc-xsd';
import { buildWsdl } from './wsdl';
import { joinSurrogateReferences } from './xml';

export type { ServiceDeps } from './operations';
export type { SoapHttpResponse } from './fault';

export async function handleSoapPost(deps: ServiceDeps, body: string, headers: Headers): Promise<SoapHttpResponse> {
  const meter = new Meter();
  try {
    const xml = joinSurrogateReferences(body);
    const envelope = checkEnvelope(xml);
    const { operation } = envelope;
    // The parts are for callers with a key; the envelope's own tree names it.
    const authenticated = await authenticateCaller(deps, operation, readCaller(envelope), headers, meter);
    if ('refused' in authenticated) return resultResponse(operation, authenticated.refused);
    const call = normalizeArgs(operation, readRawParts(envelope));
    return resultResponse(operation, await executeCall(deps, call, headers, meter, authenticated.known));
  } catch (err) {
    if (err instanceof SoapFault) return faultResponse(err);
    console.error('[soap] internal error:', err);
    return faultResponse(INTERNAL_FAULT);
  }
}

export function wsdlResponse(requestUrl: string, headers: Headers): SoapHttpResponse {
  return {
    status: 200,
    headers: { 'Content-Type': 'text/xml; charset=utf-8' },
    body: buildWsdl(endpointAddress(headers, requestUrl)),
  };
}

export function soapencXsdResponse(): SoapHttpResponse {
  return { status: 200, headers: { 'Content-Type': 'text/xml; charset=utf-8' }, body: SOAPENC_XSD };
}

/** GET ?xsd=soapenc: the schema the WSDL imports for the SOAP encoding namespace. */
export function wantsSoapencXsd(requestUrl: string): boolean {
  const params = new URL(requestUrl).searchParams;
  return [...params.entries()].some(([k, v]) => k.toLowerCase() === 'xsd' && v.toLowerCase() === 'soapenc');
}

/** GET ?wsdl in any case (?wsdl, ?WSDL, ?Wsdl=1). */
export function wantsWsdl(requestUrl: string): boolean {
  return [...new URL(requestUrl).searchParams.keys()].some((k) => k.toLowerCase() === 'wsdl');
}
