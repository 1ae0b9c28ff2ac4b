// The JavaScript budget of every page: the gzip -9 size of the entry and
// of every chunk its HTML loads (script and modulepreload), at most 60 KB
// (the dashboard, with its chart library, 100 KB; the door 40 KB). Run after the build
// (make web); prints each page's size and fails when one is over.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const KB = 1024;
// The door's page loads on a phone over the venue's Wi-Fi: 40 KB, its QR
// decoder for browsers without BarcodeDetector loaded only when scanning.
const budgets = { 'dashboard.html': 100 * KB, 'checkin.html': 40 * KB };
const fallback = 60 * KB;
const dist = process.argv[2] ?? 'dist';

let over = 0;
for (const page of readdirSync(dist).filter((f) => f.endsWith('.html')).sort()) {
  const html = readFileSync(join(dist, page), 'utf8');
  const files = new Set([...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="\/?([^"]+\.js)"/g)].map((m) => m[1]));
  let bytes = 0;
  for (const f of files) bytes += gzipSync(readFileSync(join(dist, f)), { level: 9 }).length;
  const budget = budgets[page] ?? fallback;
  const ok = bytes <= budget;
  if (!ok) over++;
  console.log(`${ok ? 'ok  ' : 'OVER'} ${page.padEnd(26)} ${(bytes / KB).toFixed(1).padStart(6)} KB of ${budget / KB} KB (${files.size} files)`);
}
if (over) {
  console.error(`budget: ${over} page(s) over their JavaScript budget`);
  process.exit(1);
}
