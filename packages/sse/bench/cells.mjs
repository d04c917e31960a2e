// One benchmark measurement, run in a child process by run.mjs.
import { createParser } from 'eventsource-parser';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { readEventStream } from '../dist/index.js';
import { createParser as createOurParser } from '../dist/parser.js';

const ROUNDS = 9;
const WARMUP = 3;
const encoder = new TextEncoder();

/** ~200-byte events shaped like the service's log stream. */
function logEvents(targetBytes, startId = 1_000_000) {
  const parts = [];
  let size = 0;
  for (let i = 0; size < targetBytes; i++) {
    const data = JSON.stringify({
      event: 'log',
      timestamp: '2025-01-01T12:00:00.000Z',
      message: `[page] GET https://example.com/assets/app-${i}.js 200 (cached) in ${i % 97} ms, frame main`,
    });
    const event = `id: ${startId + i}\nevent: log\ndata: ${data}\n\n`;
    parts.push(event);
    size += event.length;
  }
  return parts.join('');
}

function split(bytes, size) {
  const chunks = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, Math.min(bytes.length, at + size)));
  return chunks;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

function streamFrom(chunks) {
  let index = 0;
  return new ReadableStream({
    pull(controller) {
      if (index < chunks.length) controller.enqueue(chunks[index++]);
      else controller.close();
    },
  });
}

function parseOurs(chunks) {
  let events = 0;
  let dataChars = 0;
  const parser = createOurParser({
    onEvent(event) {
      events++;
      dataChars += event.data.length;
    },
  });
  for (const chunk of chunks) parser.feed(chunk);
  parser.end();
  return events + dataChars * 0;
}

function parseEsp(chunks) {
  let events = 0;
  let dataChars = 0;
  const decoder = new TextDecoder();
  const parser = createParser({
    onEvent(event) {
      events++;
      dataChars += event.data.length;
    },
  });
  for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
  parser.feed(decoder.decode());
  return events + dataChars * 0;
}

async function streamOurs(chunks) {
  let events = 0;
  let dataChars = 0;
  for await (const event of readEventStream(streamFrom(chunks))) {
    events++;
    dataChars += event.data.length;
  }
  return events + dataChars * 0;
}

async function streamEsp(chunks) {
  let events = 0;
  let dataChars = 0;
  const decoder = new TextDecoder();
  const parser = createParser({
    onEvent(event) {
      events++;
      dataChars += event.data.length;
    },
  });
  const reader = streamFrom(chunks).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  return events + dataChars * 0;
}

async function streamEspTransform(chunks) {
  let events = 0;
  let dataChars = 0;
  const reader = streamFrom(chunks)
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    events++;
    dataChars += value.data.length;
  }
  return events + dataChars * 0;
}

async function throughput(run, chunks, totalBytes) {
  const rates = [];
  let events = 0;
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    const started = performance.now();
    events = await run(chunks);
    const seconds = (performance.now() - started) / 1000;
    if (round >= WARMUP) rates.push(totalBytes / 1e6 / seconds);
  }
  return { mbps: median(rates), events };
}

async function timePerMb(run, chunks, totalBytes) {
  const times = [];
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    const started = performance.now();
    await run(chunks);
    if (round >= WARMUP) times.push(performance.now() - started);
  }
  return median(times) / (totalBytes / 1e6);
}

export async function runCell(kind, which, size) {
  if (kind === 'parser' || kind === 'stream') {
    const bytes = encoder.encode(logEvents(8 * 1024 * 1024));
    const chunks = split(bytes, Number(size));
    const run = {
      'parser:ours': parseOurs,
      'parser:esp': parseEsp,
      'stream:ours': streamOurs,
      'stream:esp': streamEsp,
      'stream:esp-transform': streamEspTransform,
    }[`${kind}:${which}`];
    return throughput(run, chunks, bytes.length);
  }
  if (kind === 'linear') return linear(which);
  if (kind === 'memory') return memory();
  throw new Error(`unknown cell ${kind}`);
}

async function linear(which) {
  let chunks;
  let limits = {};
  if (which === 'plain') {
    chunks = [encoder.encode(logEvents(4 * 1024 * 1024))];
  } else if (which === 'plain-1460') {
    chunks = split(encoder.encode(logEvents(4 * 1024 * 1024)), 1460);
  } else if (which === 'stray-cr') {
    const text = logEvents(4 * 1024 * 1024);
    let withCr = '';
    for (let at = 0; at < text.length; at += 65536) withCr += `${text.slice(at, at + 65536)}\r`;
    chunks = [encoder.encode(withCr)];
  } else if (which === 'many-lines' || which === 'many-lines-1460') {
    // One 4 MiB event of 65,536 short data lines, under the default limits (8 MiB per event): the
    // parser joins and counts the lines as they come, so this must cost what plain events cost.
    const event = encoder.encode(`${`data: ${'x'.repeat(57)}\n`.repeat(65_536)}\n`);
    chunks = which === 'many-lines' ? [event] : split(event, 1460);
  } else {
    const line = encoder.encode(`data: ${'x'.repeat(8 * 1024 * 1024)}\n\n`);
    chunks = split(line, 1460);
    limits = { maxLineBytes: 16 * 1024 * 1024, maxEventBytes: 16 * 1024 * 1024 };
  }
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const ours = (input) => {
    const parser = createOurParser({ ...limits, onEvent() {} });
    for (const chunk of input) parser.feed(chunk);
    parser.end();
  };
  return { msPerMb: await timePerMb(ours, chunks, total), espMsPerMb: await timePerMb(parseEsp, chunks, total) };
}

async function memory() {
  const TOTAL = 2 ** 30;
  const CHUNK = 64 * 1024;
  // A 1 MiB run of events, cut into 16 chunks that are replayed in turn: the
  // stream is endless and continuous, only 1 MiB of it ever exists at once.
  const cycle = encoder.encode(logEvents(1024 * 1024));
  const pool = split(cycle, CHUNK);
  let sent = 0;
  let index = 0;
  let peak = 0;
  const sample = () => {
    const rss = process.memoryUsage.rss();
    if (rss > peak) peak = rss;
  };
  const body = new ReadableStream({
    pull(controller) {
      if (sent >= TOTAL) return controller.close();
      const chunk = pool[index];
      index = (index + 1) % pool.length;
      sent += chunk.length;
      if ((index & 15) === 0) sample();
      controller.enqueue(chunk);
    },
  });
  const baseline = process.memoryUsage.rss();
  peak = baseline;
  const started = performance.now();
  let events = 0;
  for await (const _event of readEventStream(body)) {
    events++;
    if ((events & 0xffff) === 0) sample();
  }
  sample();
  return {
    bytes: sent,
    events,
    seconds: (performance.now() - started) / 1000,
    peakRssGrowthMiB: (peak - baseline) / 2 ** 20,
  };
}
