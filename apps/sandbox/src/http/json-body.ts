import { badRequest } from './api-error.js';

/** Deepest nesting of objects and arrays a JSON body may have; the document's bodies need 4. */
export const MAX_JSON_DEPTH = 32;

/**
 * The offset of the first `{` or `[` that nests deeper than `max`, or -1. It stops there, so a
 * body nested millions of levels deep costs a few dozen characters, not a parse that builds
 * them all. String contents (escapes included) are skipped; other syntax is left to JSON.parse.
 */
export function nestingBeyond(text: string, max: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return i;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return -1;
}

/**
 * Parses a JSON request body: empty is "no body" (undefined); nesting beyond `MAX_JSON_DEPTH`
 * or malformed JSON is a 400 `bad_request` naming the body.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  const at = nestingBeyond(text, MAX_JSON_DEPTH);
  if (at >= 0) {
    throw badRequest('the request body is nested too deeply', [
      ['body', `nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels (at character ${at})`],
    ]);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw badRequest('the request body is not valid JSON', [['body', (error as Error).message.slice(0, 200)]]);
  }
}
