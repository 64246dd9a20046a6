import { localOcr, terminateLocalOcr } from '#ports/ocr-local';
import { buildDocText } from '#domain/extraction/lines';
import { REAL_WORLD_FIXTURES } from '#test/fixtures/real-world/index';
const fx = REAL_WORLD_FIXTURES.find((f) => f.name === process.argv[2])!;
const ocr = await localOcr.analyze(await fx.build());
const page = Number(process.argv[3]);
const words = ocr.blocks.filter((b) => b.BlockType === 'WORD' && b.Page === page);
const re = new RegExp(process.argv[4], 'i');
for (const w of words) { const bb = w.Geometry!.BoundingBox!; if (re.test(w.Text!)) console.log(JSON.stringify(w.Text), bb.Left!.toFixed(4), bb.Top!.toFixed(4), bb.Width!.toFixed(4), bb.Height!.toFixed(4)); }
const doc = buildDocText(ocr.blocks, ocr.pageCount);
const p = doc.pages.get(page)!;
for (const r of p.rows) { const t = r.tokens.map((x) => x.text).join(' '); if (re.test(t)) console.log('ROW', r.box.top.toFixed(4), t); }
await terminateLocalOcr();
