// The validators every transport and feature share: what an id is, and what an ISO 8601
// date-time is. One rule each, so a trace id or a "from" accepted in one place is accepted
// in every other.
import { AppError } from './errors';
import type { JsonValue } from './json';
import { FIELD_LIMITS } from './limits';

// Control characters are refused in ids: they cannot be addressed in a URL path
// (GET /api/traces/{id} treats such an id as invalid).
export const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

export function isValidId(id: unknown): id is string {
  return (
    typeof id === 'string' && id.length > 0 && id.length <= FIELD_LIMITS.idLength && !CONTROL_CHARS.test(id)
  );
}

// ISO 8601 date-time: date, 'T', time, optional fraction, optional zone (UTC when absent).
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

const isLeapYear = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** Parses an ISO 8601 date-time strictly (no Feb 30, no hour 25); null when it is not one. */
export function parseIsoDateTime(value: string): Date | null {
  const m = ISO_DATE_TIME.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '00', frac = '', zone = 'Z'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const daysInMonth = [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  if (day > daysInMonth) return null;
  const ms = Number((frac + '000').slice(0, 3));
  let offsetMinutes = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2) || '0');
    if (oh > 23 || om > 59) return null;
    offsetMinutes = sign * (oh * 60 + om);
  }
  // Year 0 does not exist in PostgreSQL; Date.UTC would also read years 0-99 as 19xx.
  if (year < 1) return null;
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, ms) - offsetMinutes * 60_000);
  date.setUTCFullYear(date.getUTCFullYear() - 2000 + year);
  return Number.isNaN(date.getTime()) ? null : date;
}

// PostgreSQL text and jsonb cannot hold U+0000, and jsonb refuses unpaired UTF-16
// surrogates; refuse them with the field's name instead of a storage error.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Throws a 400 naming `path` when the text cannot be stored. */
export function checkStorableText(value: string, path: string): void {
  if (UNSTORABLE.test(value)) throw new AppError('VALIDATION', `${path} contains a NUL character or an unpaired surrogate, which cannot be stored`);
}

/**
 * Checks an any-JSON value (a payload) for storing: no unstorable text, nested at most
 * FIELD_LIMITS.jsonDepth levels; iterative, so deep values never overflow the stack.
 * Returns it, with undefined as null.
 */
export function checkStorableJson(value: unknown, path: string): JsonValue {
  if (value === undefined) return null;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node === 'string') {
      checkStorableText(node, path);
    } else if (typeof node === 'object' && node !== null) {
      if (depth > FIELD_LIMITS.jsonDepth) throw new AppError('VALIDATION', `${path} is nested deeper than ${FIELD_LIMITS.jsonDepth} levels`);
      if (Array.isArray(node)) {
        for (const item of node) stack.push([item, depth + 1]);
      } else {
        for (const [key, item] of Object.entries(node)) {
          checkStorableText(key, path);
          stack.push([item, depth + 1]);
        }
      }
    }
  }
  return value as JsonValue;
}

/** A request body's JSON, or the 400 every JSON route gives for text that is not JSON. */
export function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('VALIDATION', 'Invalid JSON in request body');
  }
}
