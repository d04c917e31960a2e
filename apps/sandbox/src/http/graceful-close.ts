import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/**
 * An answer sent before the request was read (401, 413, a parse error) leaves the rest on the
 * wire. Closing then would make the kernel reset the connection, and a client still uploading
 * would see the reset instead of the answer; so the rest is read and discarded, up to these
 * bounds, and only then is the connection closed.
 */
export const DRAIN_LIMITS = { maxBytes: 16 * 1024 * 1024, lingerMs: 5_000 } as const;

/** Sockets whose answer went out while the client may still be sending: nothing more is written to them. */
const answered = new WeakSet<Socket>();

/** Whether an answer was already sent on `socket` ahead of the rest of its request. */
export function isAnswered(socket: Socket): boolean {
  return answered.has(socket);
}

/** Marks `socket` answered, and destroys it after the linger time unless it closes first. */
function linger(socket: Socket): void {
  answered.add(socket);
  const timer = setTimeout(() => socket.destroy(), DRAIN_LIMITS.lingerMs).unref();
  socket.once('close', () => clearTimeout(timer));
}

/**
 * Closes a connection whose answer was just written raw (a parser error): the answer is followed
 * by a FIN, and what the client still sends is discarded (Node keeps feeding it to the failed
 * parser) until the client closes its side, the linger time passes or too much arrives.
 */
export function closeAfterAnswer(socket: Socket): void {
  linger(socket);
  const start = socket.bytesRead;
  socket.once('end', () => socket.destroy());
  socket.on('data', () => {
    if (socket.bytesRead - start > DRAIN_LIMITS.maxBytes) socket.destroy();
  });
  socket.end();
  socket.resume();
}

/**
 * Reads and discards the rest of a request body that an early answer (401, 413, …) left
 * unread. The answer says `Connection: close`, and Node would destroy the socket as soon as the
 * answer is flushed, with the body still arriving; instead the socket only ends its side.
 */
export function drainRequestBody(request: IncomingMessage): void {
  if (request.complete) return;
  const socket = request.socket;
  linger(socket);
  // Node calls destroySoon() once the answer is out; an own property shadows it for this socket only.
  Object.defineProperty(socket, 'destroySoon', { value: () => socket.end(), configurable: true });
  // Whatever was reading the body (a body guard, a parser) has given up on it.
  request.unpipe();
  let discarded = 0;
  request.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DRAIN_LIMITS.maxBytes) socket.destroy();
  });
  request.resume();
}
