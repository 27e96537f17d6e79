// The result every operation returns (CSvcResultXml) and the one place where domain
// errors become business failures: status 0, empty resultXml, a type-3 message.
import { isAppError } from '@/lib/core/errors';

export const MESSAGE_TYPE = { info: '1', warning: '2', error: '3' } as const;
export type MessageType = (typeof MESSAGE_TYPE)[keyof typeof MESSAGE_TYPE];

export interface SoapMessage {
  type: MessageType;
  message: string;
}

export interface TechnicalInfo {
  type: string;
  message: string;
}

export interface SoapResult {
  status: 0 | 1;
  resultXml: string;
  messages: SoapMessage[];
  technicalInfos: TechnicalInfo[];
}

export function failure(message: string, messages: SoapMessage[] = []): SoapResult {
  return { status: 0, resultXml: '', messages: [...messages, { type: MESSAGE_TYPE.error, message }], technicalInfos: [] };
}

/**
 * A domain error (AppError: validation, not found, conflict, ...) is a business
 * failure, not a fault. Anything else is unexpected and is rethrown, to become a
 * soapenv:Server fault with a generic message.
 */
export function toSoapResult(err: unknown, messages: SoapMessage[] = []): SoapResult {
  if (isAppError(err)) return failure(err.message, messages);
  throw err;
}
