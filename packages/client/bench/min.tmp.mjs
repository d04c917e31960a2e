import { build } from 'esbuild';
const r = await build({ entryPoints: [process.argv[2]], bundle: false, minify: true, format: 'esm', write: false, logLevel: 'silent' });
console.log(r.outputFiles[0].text);
