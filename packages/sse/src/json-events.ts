import { DONE } from './batched-event-iterator.js';
import { SseError } from './errors.js';
import type { SseEvent } from './event-parser.js';

/** A type guard, such as an Ajv standalone validator, which leaves its findings in `errors`. */
export type TypeGuard<T> = ((value: unknown) => value is T) & { errors?: unknown };
/** A checker that returns its findings; `null`, `undefined` or an empty list means valid. */
export type ErrorListValidator = (value: unknown) => readonly unknown[] | null | undefined;
/** Either kind of validator; `T` is inferred from a type guard, or given explicitly. */
export type Validator<T> = TypeGuard<T> | ErrorListValidator;

/** An event whose data was parsed as JSON and validated. */
export interface JsonEvent<T> extends Pick<SseEvent, 'event' | 'id'> {
  /** The parsed, validated data. */
  data: T;
  /** The data exactly as received, before `JSON.parse`. */
  raw: string;
}

/** What to skip and how to check; the README's table gives each option's default. */
export interface JsonEventOptions<T> {
  /** Checks each parsed value; without one, values are passed through as `T` unchecked. */
  validate?: Validator<T>;
  /** Skip events whose data is empty (e.g. a bare `data:` keep-alive). */
  skipEmptyData?: boolean;
  /** Skip events whose SSE type, or JSON object's `event` property, is in `heartbeatEvents` (before validation). */
  skipHeartbeats?: boolean;
  heartbeatEvents?: readonly string[];
  /** Only parse events of these SSE types and skip the rest. */
  eventTypes?: readonly string[];
  /** Extra skip rule, run first on the raw event. */
  skip?: (event: SseEvent) => boolean;
  /** Data that is not JSON (`invalid-json`) or fails validation (`invalid-data`): throw it, skip it, or tell and skip. */
  onInvalid?: 'throw' | 'skip' | ((error: SseError) => void);
}

/**
 * A pure function of one event, from any source: its {@link JsonEvent}, `undefined` when the skip
 * policy drops it, or a thrown `SseError` (`invalid-json`, `invalid-data`, with the raw data).
 */
export function createJsonEventDecoder<T = unknown>(
  options: JsonEventOptions<T> = {},
): (event: SseEvent) => JsonEvent<T> | undefined {
  const { validate, skip } = options;
  const skipEmptyData = options.skipEmptyData ?? true;
  const heartbeats =
    (options.skipHeartbeats ?? true) ? new Set(options.heartbeatEvents ?? ['sse_heartbeat']) : undefined;
  const eventTypes = options.eventTypes === undefined ? undefined : new Set(options.eventTypes);

  return (event) => {
    if (skip?.(event)) return undefined;
    if (eventTypes !== undefined && !eventTypes.has(event.event)) return undefined;
    if (heartbeats?.has(event.event)) return undefined;
    const raw = event.data;
    if (raw.length === 0 && skipEmptyData) return undefined;
    // Both failures carry the raw data and where it came from.
    const about = { data: raw, event: event.event, id: event.id };
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new SseError('invalid-json', `Event data is not valid JSON: ${(error as Error).message}`, {
        ...about,
        cause: error,
      });
    }
    const type = (value as { event?: unknown } | null)?.event;
    if (typeof type === 'string' && heartbeats?.has(type)) return undefined;
    const result: unknown = validate?.(value);
    // A type guard that said no (with its findings, if it left any), or a non-empty error list.
    if (result === false || (Array.isArray(result) && result.length !== 0)) {
      const validationErrors = result === false ? ((validate as TypeGuard<T>).errors ?? false) : result;
      throw new SseError('invalid-data', 'Event data failed validation', { ...about, value, validationErrors });
    }
    return { event: event.event, id: event.id, data: value as T, raw };
  };
}

/** A stream of {@link JsonEvent}s; forwards `lastEventId` and `close()` to its source when it has them. */
export interface JsonEventStream<T> extends AsyncIterableIterator<JsonEvent<T>> {
  /** The source's `lastEventId`, or the ID of the last event read from it. */
  readonly lastEventId: string;
  /** Closes the source (cancelling its body or connection). */
  close(): Promise<void>;
}

/**
 * Each event of `source` (`readEventStream`, `connectEventStream`, any async iterable of events)
 * through {@link createJsonEventDecoder}. Leaving the loop, or an invalid event thrown, closes the source.
 */
export function parseJsonEvents<T = unknown>(
  source: AsyncIterable<SseEvent>,
  options: JsonEventOptions<T> = {},
): JsonEventStream<T> {
  const iterator = source[Symbol.asyncIterator]();
  const decode = createJsonEventDecoder(options);
  const onInvalid = options.onInvalid ?? 'throw';
  let lastSeenId = '';
  let finished = false;

  const stream: JsonEventStream<T> = {
    get lastEventId() {
      const id = (source as { readonly lastEventId?: unknown }).lastEventId;
      return typeof id === 'string' ? id : lastSeenId;
    },
    [Symbol.asyncIterator]() {
      return stream;
    },
    async next() {
      while (!finished) {
        const result = await iterator.next();
        if (result.done === true) break;
        lastSeenId = result.value.id;
        let value: JsonEvent<T> | undefined;
        try {
          value = decode(result.value);
        } catch (error) {
          if (onInvalid === 'throw') {
            await stream.close();
            throw error;
          }
          if (typeof onInvalid === 'function') onInvalid(error as SseError);
          continue;
        }
        if (value !== undefined) return { done: false, value };
      }
      finished = true;
      return DONE;
    },
    async return() {
      await stream.close();
      return DONE;
    },
    async close() {
      if (finished) return;
      finished = true;
      await iterator.return?.();
    },
  };
  return stream;
}
