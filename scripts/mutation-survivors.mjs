#!/usr/bin/env node
// Lists the surviving mutants of a package's last `npm run mutation` that its Stryker config does
// not list as equivalent: those are the gaps a test should close.
//
//   node scripts/mutation-survivors.mjs packages/sse
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = resolve(process.argv[2] ?? '.');
const { equivalentMutants } = await import(pathToFileURL(join(dir, 'stryker.config.mjs')).href);
const listed = equivalentMutants.map((entry) => {
  const [, file, line, mutators] = /^(\S+):(\d+) ([\w,]+) in /.exec(entry) ?? [];
  if (!file) throw new Error(`equivalentMutants: cannot read "${entry}"`);
  return { file, line: Number(line), mutators: mutators.split(',') };
});
const report = JSON.parse(readFileSync(join(dir, 'reports/mutation/mutation.json'), 'utf8'));
let survivors = 0;
let equivalent = 0;
for (const [file, { source, mutants }] of Object.entries(report.files)) {
  const lines = source.split('\n');
  for (const mutant of mutants.filter(({ status }) => status === 'Survived' || status === 'NoCoverage')) {
    const line = mutant.location.start.line;
    if (listed.some((e) => file.endsWith(e.file) && e.line === line && e.mutators.includes(mutant.mutatorName))) {
      equivalent++;
      continue;
    }
    survivors++;
    const code = `${lines[line - 1]?.trim()}  ->  ${mutant.replacement ?? ''}`;
    console.log(`${file}:${line} ${mutant.mutatorName} (${mutant.status}): ${code}`);
  }
}
console.log(`${survivors} survivor(s) not listed as equivalent; ${equivalent} listed as equivalent.`);
