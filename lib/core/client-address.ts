// The client's address, for the per-address sign-in limit. Next gives route handlers no
// socket, and fills X-Forwarded-For with the socket's address only when a request has
// none, so a client sending its own would choose its address. So the server process notes
// each request's socket address in a header of its own as Node receives it (the
// http.server.request.start diagnostics channel, published before any handler runs),
// vouched for by a per-process token no client can know; X-Forwarded-For counts only when
// the socket is a proxy listed in TRUSTED_PROXIES.
import { randomBytes } from 'node:crypto';
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP, type Socket } from 'node:net';
import type { TrustedProxy } from '@/lib/core/config';

export const PEER_HEADER = 'x-crossroads-peer';

// On globalThis: instrumentation.ts and the route handlers are separate module graphs.
const state = globalThis as unknown as { __crossroadsPeerToken?: string; __crossroadsPeerRecording?: boolean };

function token(): string {
  state.__crossroadsPeerToken ??= randomBytes(18).toString('base64url');
  return state.__crossroadsPeerToken;
}

/** The PEER_HEADER value that says a request came from this socket address. */
export function peerHeaderValue(address: string): string {
  return `${token()} ${address}`;
}

/**
 * Notes every request's socket address from now on, in this process (the server calls it
 * at start). Any PEER_HEADER a client sent is replaced.
 */
export function recordSocketAddresses(): void {
  if (state.__crossroadsPeerRecording) return;
  state.__crossroadsPeerRecording = true;
  subscribe('http.server.request.start', (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    request.headers[PEER_HEADER] = peerHeaderValue(socket.remoteAddress ?? '');
  });
}

/** An IPv4 client of a dual-stack socket reads ::ffff:192.0.2.1; it is 192.0.2.1. */
function normalAddress(address: string): string {
  const trimmed = address.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(trimmed);
  return mapped ? mapped[1] : trimmed;
}

function socketAddress(headers: Headers): string | null {
  const value = headers.get(PEER_HEADER);
  const prefix = `${token()} `;
  if (!value?.startsWith(prefix)) return null;
  const address = normalAddress(value.slice(prefix.length));
  return isIP(address) ? address : null;
}

function proxyList(trusted: readonly TrustedProxy[]): BlockList {
  const list = new BlockList();
  for (const proxy of trusted) list.addSubnet(proxy.address, proxy.prefix, proxy.family);
  return list;
}

function isTrusted(list: BlockList, address: string): boolean {
  return list.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

/**
 * Who sent the request: the socket's address; when that is a trusted proxy, the right-most
 * X-Forwarded-For hop no trusted proxy added (each proxy appends the address it was sent
 * from, so hops further left are whatever the client wrote). Null when no socket was seen
 * (a handler called without the server, or a platform that hides it).
 */
export function clientAddress(headers: Headers, trusted: readonly TrustedProxy[]): string | null {
  const peer = socketAddress(headers);
  if (peer === null || trusted.length === 0) return peer;
  const list = proxyList(trusted);
  if (!isTrusted(list, peer)) return peer;
  const hops = (headers.get('x-forwarded-for') ?? '').split(',').map(normalAddress).filter(Boolean);
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    // Not an address: not written by a proxy; the last proxy seen stands for the client.
    if (!isIP(hops[i])) return client;
    client = hops[i];
    if (!isTrusted(list, client)) return client;
  }
  return client;
}
