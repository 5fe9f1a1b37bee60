import { launch, PORT, startPreview } from './browser.mjs';
const server = await startPreview();
const browser = await launch();
const page = await browser.newPage();
await page.goto(`http://localhost:${PORT}/`);
await page.evaluate(() => { const i = document.createElement('input'); i.type = 'file'; i.id = 'f'; document.body.append(i); });
await page.setInputFiles('#f', process.argv[2]);
for (let rep = 0; rep < 2; rep++) {
const r = await page.evaluate(async () => {
  const file = document.getElementById('f').files[0];
  const src = `onmessage = async (e) => {
    const f = e.data; const out = {};
    let t = performance.now();
    const rd = f.stream().getReader(); let n = 0; for (;;) { const { done, value } = await rd.read(); if (done) break; n += value.length; }
    out.stream = performance.now() - t; t = performance.now();
    for (let o = 0; o < f.size; o += 8 << 20) { const b = await f.slice(o, o + (8 << 20)).arrayBuffer(); n += b.byteLength; }
    out.slices8MB = performance.now() - t; t = performance.now();
    const frs = new FileReaderSync(); for (let o = 0; o < f.size; o += 8 << 20) { const b = frs.readAsArrayBuffer(f.slice(o, o + (8 << 20))); n += b.byteLength; }
    out.readerSync8MB = performance.now() - t; t = performance.now();
    const all = await f.arrayBuffer(); out.arrayBuffer = performance.now() - t; t = performance.now();
    const text = new TextDecoder().decode(all); out.decode = performance.now() - t; t = performance.now();
    let pos = 0, c = 0; const lines = []; for (;;) { const nl = text.indexOf('\\n', pos); if (nl < 0) break; lines.push(text.slice(pos, nl)); pos = nl + 1; c++; }
    out.split = performance.now() - t; t = performance.now();
    const objs = []; for (const l of lines) objs.push(JSON.parse(l));
    out.parseKeep = performance.now() - t; t = performance.now();
    for (const l of lines) JSON.parse(l);
    out.parseDrop = performance.now() - t;
    postMessage(out);
  }`;
  const w = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })));
  const r = await new Promise((res) => { w.onmessage = (e) => res(e.data); w.postMessage(file); });
  w.terminate();
  return r;
});
console.log(Object.entries(r).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(' · '));
}
await browser.close(); server.kill();
