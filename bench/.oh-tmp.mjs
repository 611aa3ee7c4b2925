import pg from 'pg';
import { createHash, hash } from 'node:crypto';
const { readLiveState } = await import('/work/main/dist/introspect/read.js');
const { objectHashes } = await import('/work/main/dist/introspect/to-model.js');
const c = new pg.Client({ connectionString: process.argv[2] }); await c.connect();
const live = await readLiveState(c);
const doc = live.doc;
await c.end();
for (let r = 0; r < 3; r++) {
  let t = performance.now(); objectHashes(doc); const full = performance.now() - t;
  t = performance.now(); let n = 0; for (const x of doc.tables) n += JSON.stringify(x).length; for (const x of doc.routines) n += JSON.stringify(x).length; for (const x of doc.objects ?? []) n += JSON.stringify(x).length; const str = performance.now() - t;
  const strs = [...doc.tables, ...doc.routines, ...(doc.objects ?? [])].map((x) => JSON.stringify(x));
  t = performance.now(); for (const s of strs) hash('sha256', s); const h = performance.now() - t;
  t = performance.now(); for (const s of strs) hash('sha1', s); const h1 = performance.now() - t;
  t = performance.now(); for (const s of strs) hash('md5', s); const h5 = performance.now() - t;
  t = performance.now(); hash('sha256', strs.join('\n')); const hj = performance.now() - t;
  console.log(`objectHashes ${full.toFixed(0)} ms; stringify ${str.toFixed(0)} ms (${(n/1e6).toFixed(1)} MB, ${strs.length} objects); sha256 each ${h.toFixed(0)}; sha1 ${h1.toFixed(0)}; md5 ${h5.toFixed(0)}; sha256 joined ${hj.toFixed(0)}`);
}
