// Test support: reads PDFs with PDF.js and tells what a reader sees, as JSON: every page's size
// and its text runs with position, size, rotation, font, fill colour and opacity. PDF.js ships ES
// modules only, so the tests run this in a child process (testkit.ts), which they keep for the
// PDFs of a test file: one PDF a line of stdin (base64), one answer a line of stdout
// (`{"view": ...}` or `{"error": "..."}`), in order. It ends with its stdin, or when idle for
// IDLE_MS (the test file that started it has finished).
import { Buffer } from 'node:buffer';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';
import { createInterface } from 'node:readline';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';

const IDLE_MS = 10_000;
let idle = setTimeout(() => process.exit(0), IDLE_MS);
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  clearTimeout(idle);
  let answer;
  try {
    answer = { view: await inspect(new Uint8Array(Buffer.from(line, 'base64'))) };
  } catch (err) {
    answer = { error: err instanceof Error ? err.message : String(err) };
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
  idle = setTimeout(() => process.exit(0), IDLE_MS);
}

async function inspect(data) {
  const doc = await getDocument({ data, isEvalSupported: false, useSystemFonts: false, verbosity: 0 }).promise;
  const pages = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const [x0, y0, x1, y1] = page.view;
    // The operator list loads the page's fonts, whose names the text items then give.
    const ops = await page.getOperatorList();
    const fontOf = (id) => (page.commonObjs.has(id) ? (page.commonObjs.get(id)?.name ?? null) : null);
    const content = await page.getTextContent();
    const items = content.items
      .filter((it) => 'str' in it && it.str.length > 0)
      .map((it) => {
        const [a, b, , , e, f] = it.transform;
        return {
          str: it.str,
          x: e,
          y: f,
          width: it.width,
          fontSize: Math.hypot(a, b),
          rotation: (Math.atan2(b, a) * 180) / Math.PI,
          fontFamily: content.styles[it.fontName]?.fontFamily ?? null,
          font: fontOf(it.fontName),
        };
      });
    // Font, fill colour and opacity in force at each text drawing, in drawing order.
    const runs = [];
    let color = '#000000';
    let opacity = 1;
    let font = null;
    const stack = [];
    for (let i = 0; i < ops.fnArray.length; i++) {
      const fn = ops.fnArray[i];
      const args = ops.argsArray[i];
      if (fn === OPS.save) stack.push([color, opacity, font]);
      else if (fn === OPS.restore) [color, opacity, font] = stack.pop() ?? ['#000000', 1, null];
      else if (fn === OPS.setFont) font = fontOf(args[0]);
      else if (fn === OPS.setFillRGBColor) color = typeof args[0] === 'string' ? args[0] : toHex(args);
      else if (fn === OPS.setFillGray) color = toHex([args[0] * 255, args[0] * 255, args[0] * 255]);
      else if (fn === OPS.setGState) {
        for (const [k, v] of args[0]) if (k === 'ca') opacity = v;
      } else if (fn === OPS.showText) {
        const text = args[0].map((g) => (typeof g === 'object' && g !== null && 'unicode' in g ? g.unicode : '')).join('');
        if (text.trim()) runs.push({ text, color, opacity, font });
      }
    }
    pages.push({ width: x1 - x0, height: y1 - y0, items, runs });
  }
  const view = { pages, info: (await doc.getMetadata()).info ?? null };
  await doc.destroy();
  return view;
}

function toHex(rgb) {
  return `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
}
