// Runs one normalised call: credentials, requestConfig, the public name's operation,
// the result as XML or JSON, technical infos, one log line. Business failures come
// back as status 0 through toSoapResult; anything unexpected propagates (Server fault).
import 'server-only';
import type { ServiceContext } from '@/lib/core/context';
import { requireScope } from '@/lib/core/context';
import type { Limits } from '@/lib/core/config';
import { AppError, isAppError } from '@/lib/core/errors';
import type { SoapCall } from './args';
import { readParamXml, writeDocument } from './codec';
import { callerName, logSafe } from './credentials';
import type { EnvelopeCaller } from './envelope';
import type { Meter } from './meter';
import { callWrites, checkKeys, describeAll, findObject, type ObjectContext, type Payload, type PublicObject } from './registry';
import { parseRequestConfig, type RequestConfig } from './request-config';
import { MESSAGE_TYPE, failure, toSoapResult, type SoapMessage, type SoapResult } from './result';
import type { OperationName } from './namespaces';

export interface ServiceDeps {
  /** The call's context from its headers and its envelope's key (requestContext of lib/features/access, transport soap). */
  context(headers: Headers, envelopeKey: string): Promise<ServiceContext>;
  limits(): Limits;
}

export const MAX_LIST_SIZE = 1000;

function unsupported(o: PublicObject, operation: string): never {
  throw new AppError('VALIDATION', `Operation ${operation} is not available for ${o.name}`);
}

async function dispatch(ctx: ObjectContext, call: SoapCall): Promise<Payload> {
  if (call.operation === 'getDescription') {
    return call.publicName === '' ? describeAll() : findObject(call.publicName).describe();
  }
  const o = findObject(call.publicName);
  switch (call.operation) {
    case 'read':
      if (!o.read || !o.keys) return unsupported(o, 'read');
      return o.read(ctx, checkKeys(o.name, call.objectKeys, o.keys, 'key'));
    case 'query': {
      if (!o.query || !o.filters) return unsupported(o, 'query');
      const filters = checkKeys(o.name, call.objectKeys, o.filters, 'filter');
      if (call.listSize < 1) {
        throw new AppError('VALIDATION', `listSize must be between 1 and ${MAX_LIST_SIZE}, got ${call.listSize}`);
      }
      let listSize = call.listSize;
      if (listSize > MAX_LIST_SIZE) {
        ctx.warn(`listSize ${listSize} is above the maximum of ${MAX_LIST_SIZE}; at most ${MAX_LIST_SIZE} rows are returned`);
        listSize = MAX_LIST_SIZE;
      }
      return o.query(ctx, filters, listSize);
    }
    case 'save':
      if (!o.save) return unsupported(o, 'save');
      return o.save(ctx, call.objectXml);
    case 'run': {
      if (!o.run) return unsupported(o, 'run');
      return o.run(ctx, readParamXml(call.inputXml, 'inputXml').fields);
    }
  }
}

function render(payload: Payload, config: RequestConfig): string {
  if (config.json) return JSON.stringify(payload.json, null, config.beautify ? 2 : undefined);
  return writeDocument(payload.xml, config.beautify);
}

/** A caller authenticated from the envelope before its parts were read: its key and the context built from it. */
export interface KnownCaller {
  key: string;
  context: ServiceContext;
}

/**
 * Authenticates the caller the envelope names, before the parts are read: a call
 * without a valid key is answered here (Authentication failed). Otherwise the caller,
 * whose context executeCall reuses.
 */
export async function authenticateCaller(
  deps: ServiceDeps,
  operation: OperationName,
  caller: EnvelopeCaller,
  headers: Headers,
  meter: Meter,
): Promise<{ refused: SoapResult } | { known: KnownCaller }> {
  const context = await deps.context(headers, caller.key);
  const refusal = soapAccessRefusal(context, callWrites(operation, caller.publicName) ? 'ingest' : 'read');
  if (refusal !== AUTHENTICATION_FAILED) return { known: { key: caller.key, context } };
  const result = failure(refusal);
  result.technicalInfos = meter.infos(parseRequestConfig(caller.requestConfig).trace);
  logCall(operation, caller.publicName, null, caller.codeUser, result);
  return { refused: result };
}

export async function executeCall(deps: ServiceDeps, call: SoapCall, headers: Headers, meter: Meter, known?: KnownCaller): Promise<SoapResult> {
  const config = parseRequestConfig(call.callContext.requestConfig);
  const warnings: SoapMessage[] = [];
  const service = known && known.key === call.callContext.password ? known.context : await deps.context(headers, call.callContext.password);
  const refusal = soapAccessRefusal(service, callWrites(call.operation, call.publicName) ? 'ingest' : 'read');
  const caller = refusal === null ? callerName(call.callContext, headers) : null;

  let result: SoapResult;
  if (refusal !== null) {
    result = failure(refusal);
  } else {
    const ctx: ObjectContext = {
      meter,
      limits: deps.limits(),
      warn: (message) => warnings.push({ type: MESSAGE_TYPE.warning, message }),
      withContext: (step) => meter.db(() => step(service)),
    };
    try {
      const payload = await dispatch(ctx, call);
      result = { status: 1, resultXml: render(payload, config), messages: warnings, technicalInfos: [] };
    } catch (err) {
      result = toSoapResult(err, warnings);
    }
  }
  result.technicalInfos = meter.infos(config.trace);
  logCall(call.operation, call.publicName, caller, call.callContext.codeUser, result);
  return result;
}

/** One log line per call; caller is null when the call was refused (codeUser is then what the envelope claims). */
function logCall(operation: OperationName, publicName: string, caller: string | null, codeUser: string, result: SoapResult): void {
  console.info(
    `[soap] ${operation} ${logSafe(publicName) || '-'} user=${caller ? logSafe(caller) : logSafe(codeUser) || '-'}` +
      ` status=${result.status}${caller ? '' : ' (authentication failed)'} ${result.technicalInfos[0].message}ms`,
  );
}

const AUTHENTICATION_FAILED = 'Authentication failed';

/**
 * The business failure of a call its caller may not make, or null. The operations check
 * their scope again through the verbs they call; this answers before any work, with
 * SOAP's messages: a missing or unknown key is "Authentication failed".
 */
export function soapAccessRefusal(ctx: ServiceContext, scope: 'ingest' | 'read'): string | null {
  try {
    requireScope(ctx, scope);
    return null;
  } catch (err) {
    if (!isAppError(err)) throw err;
    return err.code === 'FORBIDDEN' ? err.message : AUTHENTICATION_FAILED;
  }
}
