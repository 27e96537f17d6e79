// GET /api/soap?wsdl - the WSDL (?xsd=soapenc: the schema it imports); POST /api/soap - SOAP 1.1 envelopes (lib/soap)
import { BusyError } from '@/lib/core/budget';
import { requestContext } from '@/lib/features/access';
import { getLimits } from '@/lib/core/config';
import { isAppError } from '@/lib/core/errors';
import { withBodyAdmission } from '@/lib/core/admission';
import { readBodyText } from '@/lib/transports/http/body';
import { publicRoute } from '@/lib/transports/http/respond';
import { SoapFault, faultResponse, type SoapHttpResponse } from '@/lib/transports/soap/fault';
import { handleSoapPost, soapencXsdResponse, wantsSoapencXsd, wantsWsdl, wsdlResponse } from '@/lib/transports/soap/service';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const SOAP_DEPS = {
  context: (headers: Headers, envelopeKey: string) => requestContext(headers, { kind: 'soap', envelopeKey }),
  limits: getLimits,
};

const send = (r: SoapHttpResponse) => new Response(r.body, { status: r.status, headers: r.headers });

// Public: the WSDL and its schema hold no data, and legacy toolkits fetch them anonymously.
export const GET = publicRoute(async (req: Request) => {
  if (wantsWsdl(req.url)) return send(wsdlResponse(req.url, req.headers));
  if (wantsSoapencXsd(req.url)) return send(soapencXsdResponse());
  return new Response('SOAP 1.1 endpoint. The WSDL is at ?wsdl\n', {
    status: 200,
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  });
});

// Every call names its key in its envelope (callContext) or Authorization header; each
// call's context is built from both (lib/core/context.ts) and its verbs check the scope.
export const POST = publicRoute(async (req: Request) => {
  const limits = getLimits();
  try {
    // Same per-process budget for large bodies as POST /api/traces (lib/core/admission.ts).
    return await withBodyAdmission(req, limits, async () => {
      const body = await readBodyText(req, limits.maxBodyBytes);
      return send(await handleSoapPost(SOAP_DEPS, body, req.headers));
    });
  } catch (err) {
    if (isAppError(err) && err.code === 'PAYLOAD_TOO_LARGE') return send(faultResponse(new SoapFault('Client', err.message)));
    if (err instanceof BusyError) return send(faultResponse(new SoapFault('Server', err.message)));
    throw err;
  }
});
