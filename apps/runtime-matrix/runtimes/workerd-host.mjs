// Runs the bundled Worker (argv[2]) in workerd through miniflare and prints what it answers to
// one POST of the input (argv[3]). Miniflare 4 needs Node 22+, so the matrix runs this host
// with the Node 24 it installed.
import { readFileSync } from 'node:fs';
import { Miniflare } from 'miniflare';

const [script, input, compatibilityDate] = process.argv.slice(2);
const mf = new Miniflare({ modules: true, script: readFileSync(script, 'utf8'), compatibilityDate });
try {
  const response = await mf.dispatchFetch('http://consumer.worker/', { method: 'POST', body: input });
  console.log(await response.text());
} finally {
  await mf.dispose();
}
