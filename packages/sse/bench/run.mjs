// Benchmark of @browser-cloud/sse against eventsource-parser 4.1.3, on the built dist/.
// Each measurement runs in its own child process (fresh heap and JIT state) and
// reports the median of several rounds. Run `npm run build` first.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const [, , mode, ...args] = process.argv;

if (mode === '--cell') {
  const { runCell } = await import('./cells.mjs');
  process.stdout.write(JSON.stringify(await runCell(...args)));
} else {
  try {
    await import('../dist/index.js');
  } catch {
    console.error('dist/ is missing: run `npm run build` in packages/sse first.');
    process.exit(1);
  }
  main();
}

function cell(...args) {
  const child = spawnSync(process.execPath, [self, '--cell', ...args], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`bench cell ${args.join(' ')} failed:\n${child.stderr}`);
  return JSON.parse(child.stdout);
}

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => String(row[i]).length)));
  for (const [index, row] of rows.entries()) {
    console.log(
      row.map((value, i) => (i === 0 ? String(value).padEnd(widths[i]) : String(value).padStart(widths[i]))).join('  '),
    );
    if (index === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

function main() {
  const started = performance.now();
  console.log(`@browser-cloud/sse benchmark — node ${process.version}, ${process.platform}/${process.arch}`);
  console.log(
    'Corpus: 8 MiB of ~200-byte `id:`/`event:`/`data:` log events. Median of 9 rounds, MB/s = 10^6 bytes/s.\n',
  );

  console.log(
    '1. Throughput, pure parser layer (bytes -> events, synchronous) — THIS is the layer held to the 1.5x target.',
  );
  console.log(
    '   ours: createParser().feed(chunk); eventsource-parser: createParser().feed(new TextDecoder().decode(chunk, {stream: true})).',
  );
  const parserRows = [['chunk size', 'ours MB/s', 'eventsource-parser MB/s', 'ratio', 'target >= 1.5x']];
  for (const size of [16384, 61]) {
    const ours = cell('parser', 'ours', String(size));
    const theirs = cell('parser', 'esp', String(size));
    if (ours.events !== theirs.events) throw new Error(`event count mismatch: ${ours.events} vs ${theirs.events}`);
    const ratio = ours.mbps / theirs.mbps;
    parserRows.push([
      `${size} B`,
      ours.mbps.toFixed(0),
      theirs.mbps.toFixed(0),
      `${ratio.toFixed(2)}x`,
      ratio >= 1.5 ? 'met' : 'MISSED',
    ]);
  }
  table(parserRows);

  console.log(
    "\n2. Throughput, ReadableStream in, events out: readEventStream against eventsource-parser's own stream API",
  );
  console.log(
    '   (EventSourceParserStream behind a TextDecoderStream, both iterated with for await) — held to the 1.5x target.',
  );
  console.log(
    '   Also shown, informational: a hand-written body.getReader() loop + TextDecoder + createParser with a synchronous',
  );
  console.log('   callback, which pays no promise per event (~85 ns here, the floor of any async iterator).');
  const streamRows = [
    ['chunk size', 'ours MB/s', 'esp stream MB/s', 'ratio', 'target >= 1.5x', 'esp reader loop MB/s', 'ratio'],
  ];
  for (const size of [16384, 61]) {
    const ours = cell('stream', 'ours', String(size));
    const loop = cell('stream', 'esp', String(size));
    const transform = cell('stream', 'esp-transform', String(size));
    const ratio = ours.mbps / transform.mbps;
    streamRows.push([
      `${size} B`,
      ours.mbps.toFixed(0),
      transform.mbps.toFixed(0),
      `${ratio.toFixed(2)}x`,
      ratio >= 1.5 ? 'met' : 'MISSED',
      loop.mbps.toFixed(0),
      `${(ours.mbps / loop.mbps).toFixed(2)}x`,
    ]);
  }
  table(streamRows);

  console.log('\n3. Linear time (pure parser layer): time per MB against the plain-LF case; target within 2x.');
  console.log(
    '   Each case is compared with plain LF events of the same chunking (and, for the long line, also with the one-chunk case).',
  );
  const linearRows = [['case', 'ours ms/MB', 'vs plain LF', 'target <= 2x', 'esp ms/MB']];
  const plain = cell('linear', 'plain');
  const plainSmall = cell('linear', 'plain-1460');
  const cases = [
    ['plain LF events, one 4 MiB chunk', plain, plain],
    ['lone CR every 64 KiB, one 4 MiB chunk', cell('linear', 'stray-cr'), plain],
    ['plain LF events, 1460 B chunks', plainSmall, plainSmall],
  ];
  cases.push(['one 4 MiB event of 65,536 data lines, one chunk', cell('linear', 'many-lines'), plain]);
  cases.push(['one 4 MiB event of 65,536 data lines, 1460 B chunks', cell('linear', 'many-lines-1460'), plainSmall]);
  const longLine = cell('linear', 'long-line');
  cases.push(['one 8 MiB data line, 1460 B chunks', longLine, plainSmall]);
  cases.push(['  (same, vs the one-chunk plain case)', longLine, plain]);
  for (const [name, result, base] of cases) {
    const ratio = result.msPerMb / base.msPerMb;
    linearRows.push([
      name,
      result.msPerMb.toFixed(3),
      `${ratio.toFixed(2)}x`,
      ratio <= 2 ? 'met' : 'MISSED',
      result.espMsPerMb.toFixed(3),
    ]);
  }
  table(linearRows);

  console.log('\n4. Memory: a 1 GiB stream generated on the fly (64 KiB chunks) through readEventStream.');
  const memory = cell('memory');
  table([
    ['bytes parsed', 'events', 'seconds', 'MB/s', 'peak RSS growth', 'target < 64 MiB'],
    [
      `${(memory.bytes / 2 ** 30).toFixed(2)} GiB`,
      String(memory.events),
      memory.seconds.toFixed(2),
      (memory.bytes / 1e6 / memory.seconds).toFixed(0),
      `${memory.peakRssGrowthMiB.toFixed(1)} MiB`,
      memory.peakRssGrowthMiB < 64 ? 'met' : 'MISSED',
    ],
  ]);
  console.log(`\nTotal bench time: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
