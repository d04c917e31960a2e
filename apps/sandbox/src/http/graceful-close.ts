import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { DRAIN_LIMITS } from './connection-limits.js';

/** Sockets whose answer went out while the client may still be sending: nothing more is written to them. */
const answered = new WeakSet<Socket>();

/** Whether an answer was already sent on `socket` ahead of the rest of its request. */
export function isAnswered(socket: Socket): boolean {
  return answered.has(socket);
}

/**
 * Closes a connection whose answer was just written raw (a parser error): the answer is
 * flushed and followed by a FIN, and what the client still sends is read and discarded (Node
 * keeps feeding it to the failed parser) until the client closes its side, the linger time
 * passes or too much arrives. Closing at once, with unread bytes, would reset the connection
 * and the client could lose the answer.
 */
export function closeAfterAnswer(socket: Socket): void {
  answered.add(socket);
  const start = socket.bytesRead;
  const timer = setTimeout(() => socket.destroy(), DRAIN_LIMITS.lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
  socket.on('data', () => {
    if (socket.bytesRead - start > DRAIN_LIMITS.maxBytes) socket.destroy();
  });
  socket.end();
  socket.resume();
}

/**
 * Reads and discards the rest of a request body that an early answer (401, 413, …) left
 * unread, so that the client, still uploading, receives the answer instead of a reset. The
 * answer says `Connection: close`; Node would then destroy the socket as soon as the answer is
 * flushed, with the body still arriving, which resets the connection. Instead the socket only
 * ends its side, and is destroyed when the client closes its side, when more than
 * `DRAIN_LIMITS.maxBytes` arrive, or after `DRAIN_LIMITS.lingerMs`.
 */
export function drainRequestBody(request: IncomingMessage): void {
  if (request.complete) return;
  const socket = request.socket;
  answered.add(socket);
  // Node calls destroySoon() once the answer is out; an own property shadows it for this socket only.
  Object.defineProperty(socket, 'destroySoon', { value: () => socket.end(), configurable: true });
  const timer = setTimeout(() => socket.destroy(), DRAIN_LIMITS.lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  // Whatever was reading the body (a body guard, a parser) has given up on it.
  request.unpipe();
  let discarded = 0;
  request.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DRAIN_LIMITS.maxBytes) socket.destroy();
  });
  request.resume();
}
