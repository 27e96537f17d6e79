// Reads an OTLP google.rpc.Status body in either encoding (lib/transports/otlp/encode.ts writes them;
// the proto declares message as bytes so that invalid UTF-8 cannot fail an encode).
import { RpcStatus } from '@/lib/transports/otlp/proto';

export interface DecodedStatus {
  code: number;
  message: string;
}

export function decodeStatus(contentType: string | null | undefined, body: Uint8Array): DecodedStatus {
  if (contentType === 'application/json') return JSON.parse(Buffer.from(body).toString('utf8')) as DecodedStatus;
  if (contentType !== 'application/x-protobuf') throw new Error(`not an OTLP Status: Content-Type ${contentType}`);
  const decoded = RpcStatus.toObject(RpcStatus.decode(body)) as { code?: number; message?: Uint8Array };
  return { code: decoded.code ?? 0, message: Buffer.from(decoded.message ?? new Uint8Array(0)).toString('utf8') };
}
