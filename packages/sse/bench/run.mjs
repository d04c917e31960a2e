// Benchmark of @browser-cloud/sse against eventsource-parser 4.1.3, on the built dist/ (run
// `npm run build` first): throughput, linear time, memory, bundle size. Each measurement runs in a
// child process of its own (fresh heap and JIT state) and reports the median of 9 rounds.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { createParser } from 'eventsource-parser';
import { EventSourceParserStream } from 'eventsource-parser/stream';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const { readEventStream } = await import('../dist/index.js');
const { createParser: createOurParser } = await import('../dist/parser.js');
const encoder = new TextEncoder();
const MiB = 1024 * 1024;

/** ~200-byte events shaped like the service's log stream. */
function logEvents(targetBytes) {
  let text = '';
  for (let i = 0; text.length < targetBytes; i++) {
    const message = `[page] GET https://example.com/assets/app-${i}.js 200 (cached) in ${i % 97} ms, frame main`;
    const data = JSON.stringify({ event: 'log', timestamp: '2025-01-01T12:00:00.000Z', message });
    text += `id: ${1_000_000 + i}\nevent: log\ndata: ${data}\n\n`;
  }
  return text;
}

function split(bytes, size) {
  const chunks = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return chunks;
}

async function drain(stream, each) {
  const reader = stream.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) each(read.value);
}

function streamFrom(chunks) {
  let index = 0;
  return new ReadableStream({
    pull: (controller) => (index < chunks.length ? controller.enqueue(chunks[index++]) : controller.close()),
  });
}

/** eventsource-parser behind a streaming TextDecoder, as its README pairs them. */
function espFeed(onEvent) {
  const decoder = new TextDecoder();
  const parser = createParser({ onEvent });
  return (chunk) => parser.feed(decoder.decode(chunk, { stream: true }));
}

/** Each tells `count` every event. */
const readers = {
  ours(chunks, count, limits) {
    const parser = createOurParser({ ...limits, onEvent: count });
    for (const chunk of chunks) parser.feed(chunk);
    parser.end();
  },
  esp(chunks, count) {
    const feed = espFeed(count);
    for (const chunk of chunks) feed(chunk);
  },
  async 'stream-ours'(chunks, count) {
    for await (const event of readEventStream(streamFrom(chunks))) count(event);
  },
  'stream-esp-loop': (chunks, count) => drain(streamFrom(chunks), espFeed(count)),
  // The reads alone, which every reader of a ReadableStream pays: at 61-byte chunks, most of the loop's time.
  'stream-reads': (chunks) => drain(streamFrom(chunks), () => {}),
  'stream-esp': (chunks, count) =>
    drain(streamFrom(chunks).pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()), count),
};

/** The median time of 9 rounds after 3 warm-up ones, in ms per MB, and the events counted. */
async function measure(reader, chunks, limits) {
  const bytes = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const times = [];
  let events = 0;
  // Reading `data` keeps it from being optimised away.
  const count = (event) => {
    events += 1 + 0 * event.data.length;
  };
  for (let round = 0; round < 12; round++) {
    events = 0;
    const started = performance.now();
    await readers[reader](chunks, count, limits);
    if (round >= 3) times.push(performance.now() - started);
  }
  const msPerMb = times.sort((a, b) => a - b)[4] / (bytes / 1e6);
  return { msPerMb, mbps: 1000 / msPerMb, events };
}

/** The inputs of the linear-time cases, each against plain LF events of the same chunking. */
const plainEvents = () => encoder.encode(logEvents(4 * MiB));
// One 4 MiB event of 65,536 short data lines, under the default 8 MiB event limit: joined and
// counted line by line, it must cost what plain events cost.
const manyLines = () => encoder.encode(`${`data: ${'x'.repeat(57)}\n`.repeat(65_536)}\n`);
const linearInputs = {
  plain: () => [plainEvents()],
  'plain-1460': () => split(plainEvents(), 1460),
  'stray-cr': () => [encoder.encode(logEvents(4 * MiB).replace(/.{65536}/gs, '$&\r'))],
  'many-lines': () => [manyLines()],
  'many-lines-1460': () => split(manyLines(), 1460),
  'long-line': () => split(encoder.encode(`data: ${'x'.repeat(8 * MiB)}\n\n`), 1460),
};

/** A 1 GiB stream replayed from 1 MiB of events in 64 KiB chunks, through readEventStream; peak RSS growth. */
async function memory() {
  const pool = split(encoder.encode(logEvents(MiB)), 64 * 1024);
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  let bytes = 0;
  let pulls = 0;
  const body = new ReadableStream({
    pull(controller) {
      if (bytes >= 2 ** 30) return controller.close();
      // Sampled once per MiB, where the pool starts again.
      if (pulls % pool.length === 0) peak = Math.max(peak, process.memoryUsage.rss());
      const chunk = pool[pulls++ % pool.length];
      bytes += chunk.length;
      controller.enqueue(chunk);
    },
  });
  const started = performance.now();
  let events = 0;
  for await (const _ of readEventStream(body)) events++;
  peak = Math.max(peak, process.memoryUsage.rss());
  return { bytes, events, seconds: (performance.now() - started) / 1000, growthMiB: (peak - baseline) / MiB };
}

function run(...args) {
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), ...args], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`bench cell ${args.join(' ')} failed:\n${child.stderr}`);
  return JSON.parse(child.stdout);
}

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => String(row[i]).length)));
  const line = (row) => row.map((value, i) => String(value)[i === 0 ? 'padEnd' : 'padStart'](widths[i])).join('  ');
  console.log([line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n'));
}

const verdict = (met) => (met ? 'met' : 'MISSED');
const ratio = (value) => `${value.toFixed(2)}x`;

async function main() {
  const started = performance.now();
  console.log(`@browser-cloud/sse benchmark — node ${process.version}, ${process.platform}/${process.arch}`);
  console.log('Corpus: 8 MiB of ~200-byte `id:`/`event:`/`data:` log events; median of 9 rounds; MB = 10^6 bytes.\n');

  console.log('1. Throughput, pure parser layer (bytes -> events, synchronous), held to 1.5x eventsource-parser:');
  console.log('   createParser().feed(chunk) against esp createParser().feed(decoder.decode(chunk, {stream: true})).');
  const parserRows = [['chunk size', 'ours MB/s', 'esp MB/s', 'ratio', 'target >= 1.5x']];
  for (const size of ['16384', '61']) {
    const [ours, esp] = [run('parser', 'ours', size), run('parser', 'esp', size)];
    if (ours.events !== esp.events) throw new Error(`event count mismatch: ${ours.events} vs ${esp.events}`);
    const times = ours.mbps / esp.mbps;
    parserRows.push([`${size} B`, ours.mbps.toFixed(0), esp.mbps.toFixed(0), ratio(times), verdict(times >= 1.5)]);
  }
  table(parserRows);

  console.log('\n2. Throughput, ReadableStream in, events out, end to end, held to 1.5x eventsource-parser:');
  console.log("   readEventStream (for await) against eventsource-parser's EventSourceParserStream behind a");
  console.log('   TextDecoderStream (for await), and against a getReader() loop + TextDecoder + esp createParser');
  console.log('   (no promise per event). "reads only": the same loop doing nothing with the chunks; the loop over');
  console.log('   that is the most any reader can beat it by, as every reader pays for the reads.');
  const streamRows = [
    [
      'chunk size',
      'ours MB/s',
      'esp stream MB/s',
      'ratio',
      '>= 1.5x',
      'loop MB/s',
      'ratio',
      '>= 1.5x',
      'reads only MB/s',
      'most',
    ],
  ];
  for (const size of ['16384', '61']) {
    const [ours, esp, loop, reads] = ['ours', 'esp', 'esp-loop', 'reads'].map((reader) =>
      run('stream', `stream-${reader}`, size),
    );
    const [times, loopTimes] = [ours.mbps / esp.mbps, ours.mbps / loop.mbps];
    streamRows.push([
      `${size} B`,
      ours.mbps.toFixed(0),
      esp.mbps.toFixed(0),
      ratio(times),
      verdict(times >= 1.5),
      loop.mbps.toFixed(0),
      ratio(loopTimes),
      verdict(loopTimes >= 1.5),
      reads.mbps.toFixed(0),
      ratio(reads.mbps / loop.mbps),
    ]);
  }
  table(streamRows);

  console.log('\n3. Linear time (pure parser layer): time per MB against plain LF events of the same chunking, <= 2x.');
  const linear = (name, limits) => ({
    ours: run('linear', 'ours', name, JSON.stringify(limits ?? {})).msPerMb,
    esp: run('linear', 'esp', name).msPerMb,
  });
  const plain = linear('plain');
  const plain1460 = linear('plain-1460');
  const longLine = linear('long-line', { maxLineBytes: 16 * MiB, maxEventBytes: 16 * MiB });
  const cases = [
    ['plain LF events, one 4 MiB chunk', plain, plain],
    ['lone CR every 64 KiB, one 4 MiB chunk', linear('stray-cr'), plain],
    ['plain LF events, 1460 B chunks', plain1460, plain1460],
    ['one 4 MiB event of 65,536 data lines, one chunk', linear('many-lines'), plain],
    ['one 4 MiB event of 65,536 data lines, 1460 B chunks', linear('many-lines-1460'), plain1460],
    ['one 8 MiB data line, 1460 B chunks', longLine, plain1460],
    ['  (same, vs the one-chunk plain case)', longLine, plain],
  ];
  const linearRows = [['case', 'ours ms/MB', 'vs plain LF', 'target <= 2x', 'esp ms/MB']];
  for (const [name, result, base] of cases) {
    const times = result.ours / base.ours;
    linearRows.push([name, result.ours.toFixed(3), ratio(times), verdict(times <= 2), result.esp.toFixed(3)]);
  }
  table(linearRows);

  console.log('\n4. Memory: a 1 GiB stream generated on the fly (64 KiB chunks) through readEventStream.');
  const { bytes, events, seconds, growthMiB } = run('memory');
  const header = ['bytes parsed', 'events', 'seconds', 'MB/s', 'peak RSS growth', 'target < 64 MiB'];
  const row = [`${(bytes / 2 ** 30).toFixed(2)} GiB`, events, seconds.toFixed(2), (bytes / 1e6 / seconds).toFixed(0)];
  table([header, [...row, `${growthMiB.toFixed(1)} MiB`, verdict(growthMiB < 64)]]);

  console.log('\n5. Bundle size (esbuild, ESM, minified, browser; gzip -9); the cost inside the client: its bench.');
  const stdin = { contents: `export * from '@browser-cloud/sse';`, resolveDir: packageDir, loader: 'js' };
  const options = { stdin, bundle: true, format: 'esm', platform: 'browser', minify: true, write: false };
  const code = (await build(options)).outputFiles[0].contents;
  table([
    ['entry', 'min bytes', 'gzip -9 bytes'],
    ['@browser-cloud/sse', code.length, gzipSync(code, { level: 9 }).length],
  ]);
  console.log(`\nTotal bench time: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

// A cell: `memory`, `linear <reader> <input> [limits]`, or `parser|stream <reader> <chunk size>`.
const [, , cell, reader, input, limits] = process.argv;
if (cell === undefined) await main();
else if (cell === 'memory') process.stdout.write(JSON.stringify(await memory()));
else {
  const chunks = cell === 'linear' ? linearInputs[input]() : split(encoder.encode(logEvents(8 * MiB)), Number(input));
  process.stdout.write(JSON.stringify(await measure(reader, chunks, limits && JSON.parse(limits))));
}
