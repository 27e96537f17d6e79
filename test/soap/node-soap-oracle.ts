// The reference for parts.ts: node-soap parses an envelope against our WSDL and
// dispatches it to a method that only captures the operation and node-soap's raw
// arguments. This is how the service read every envelope (a second parse) until the
// parts were read from the envelope's one tree; tests compare the two readings.
// One server per process; it holds no request state.
import { listen, type Server } from 'soap';
import { OPERATIONS, PORT_TYPE, SERVICE_NAME, type OperationName } from '@/lib/transports/soap/namespaces';
import { buildWsdl } from '@/lib/transports/soap/wsdl';

export interface DispatchedCall {
  operation: OperationName;
  args: unknown;
}

// Keyed by the headers object of each processRequest call: node-soap hands that same
// object to the method as req.headers, which ties a capture to its request.
const captured = new WeakMap<object, DispatchedCall>();

function capture(operation: OperationName) {
  return (args: unknown, _callback: unknown, _headers: unknown, req: { headers: object }) => {
    captured.set(req.headers, { operation, args });
    return {};
  };
}

const ENDPOINT_PATH = '/api/soap';

function createServer(): Promise<Server> {
  const methods = Object.fromEntries(
    (Object.keys(OPERATIONS) as OperationName[]).map((op) => [op, capture(op)]),
  );
  return new Promise((resolve, reject) => {
    listen(null, {
      path: ENDPOINT_PATH,
      services: { [SERVICE_NAME]: { [PORT_TYPE]: methods } },
      xml: buildWsdl(`http://localhost${ENDPOINT_PATH}`, { localSoapenc: false }),
      // nil parts arrive as null instead of vanishing.
      handleNilAsNull: true,
      suppressStack: true,
      callback: (err: unknown, server: Server) => (err ? reject(err) : resolve(server)),
    });
  });
}

// Module-level on purpose (not globalThis): the server's methods close over this
// module's `captured` map, so a second copy of the module needs its own server.
let server: Promise<Server> | undefined;

function getServer(): Promise<Server> {
  server ??= createServer();
  return server;
}

/** Runs xml through node-soap and returns what it dispatched; throws when it dispatched nothing. */
export async function dispatchWithNodeSoap(xml: string): Promise<DispatchedCall> {
  const soapServer = await getServer();
  // No SOAPAction is passed on: a non-empty one that matches no WSDL action crashes
  // node-soap's method lookup, and the operation is known from the body anyway.
  const headers = { 'content-type': 'text/xml; charset=utf-8' };
  const response = await soapServer.processRequest(xml, { url: ENDPOINT_PATH, method: 'POST', headers });
  const call = captured.get(headers);
  if (!call) {
    throw new Error(`node-soap dispatched no call (HTTP ${response.statusCode}): ${response.body.slice(0, 300)}`);
  }
  return call;
}
