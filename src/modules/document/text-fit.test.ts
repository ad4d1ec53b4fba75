import { fitText, LINE_HEIGHT, MIN_SIZE, SHRINK_FLOOR, type FitRequest, type FontMetrics } from './text-fit';

/** A monospace font: every character is half the size wide. */
const mono: FontMetrics = {
  width: (t, size) => Array.from(t).length * size * 0.5,
  ascent: (size) => size * 0.8,
  descent: (size) => size * 0.2,
};
const page = { width: 400, height: 300 };
const req = (over: Partial<FitRequest>): FitRequest => ({
  text: 'hello',
  x: 10,
  y: 100,
  size: 10,
  rotation: 0,
  maxWidth: null,
  page,
  ...over,
});

/** Every corner of every drawn line lies on the page. */
function onPage(r: FitRequest, fitted: ReturnType<typeof fitText>): boolean {
  const rad = (r.rotation * Math.PI) / 180;
  const d = { x: Math.cos(rad), y: Math.sin(rad) };
  const up = { x: -d.y, y: d.x };
  return fitted.lines.every((l) =>
    [
      [0, mono.ascent(fitted.size)],
      [l.width, mono.ascent(fitted.size)],
      [0, -mono.descent(fitted.size)],
      [l.width, -mono.descent(fitted.size)],
    ].every(([u, v]) => {
      const px = l.x + u * d.x + v * up.x;
      const py = l.y + u * d.y + v * up.y;
      return px >= -1e-6 && py >= -1e-6 && px <= r.page.width + 1e-6 && py <= r.page.height + 1e-6;
    }),
  );
}

describe('fitText', () => {
  it('draws a value that fits as it is, at the field position', () => {
    expect(fitText(req({}), mono)).toEqual({ size: 10, lines: [{ text: 'hello', x: 10, y: 100, width: 25 }] });
  });

  it('shrinks a value a little too wide for its maxWidth, on one line', () => {
    const r = req({ text: 'x'.repeat(12), maxWidth: 50 }); // 60 wide at 10 pt
    const f = fitText(r, mono);
    expect(f.lines).toHaveLength(1);
    expect(f.size).toBeLessThan(10);
    expect(f.size).toBeGreaterThanOrEqual(10 * SHRINK_FLOOR);
    expect(f.lines[0].width).toBeLessThanOrEqual(50);
  });

  it('wraps a long value onto lines below each other, each within the room', () => {
    const r = req({ text: 'Dāvanu karte ar ļoti garu nosaukumu, kas neietilpst vienā rindā', maxWidth: 100 });
    const f = fitText(r, mono);
    expect(f.lines.length).toBeGreaterThan(1);
    f.lines.forEach((l, k) => {
      expect(l.width).toBeLessThanOrEqual(100);
      expect(l.x).toBeCloseTo(10);
      expect(l.y).toBeCloseTo(100 - k * f.size * LINE_HEIGHT);
    });
    expect(f.lines.map((l) => l.text).join(' ')).toBe(r.text);
  });

  it('measures the room to the page edge when no maxWidth is given', () => {
    const r = req({ text: 'word '.repeat(40).trim(), x: 300 }); // 100 points to the right edge
    const f = fitText(r, mono);
    expect(Math.max(...f.lines.map((l) => l.width))).toBeLessThanOrEqual(100);
    expect(onPage(r, f)).toBe(true);
  });

  it('breaks a word longer than a line between characters, never inside one', () => {
    const r = req({ text: 'ŽŽŽŽŽŽŽŽŽŽŽŽŽŽŽŽŽŽŽŽŽŽŽŽŽŽŽŽŽŽ', maxWidth: 40 });
    const f = fitText(r, mono);
    expect(f.lines.map((l) => l.text).join('')).toBe(r.text);
    expect(f.lines.every((l) => l.width <= 40)).toBe(true);
  });

  it('wraps rotated text along its own direction (90 degrees: upwards, next lines to the right)', () => {
    const r = req({ text: 'one two three four five six seven', x: 50, y: 200, rotation: 90 }); // 100 points up to the top
    const f = fitText(r, mono);
    expect(f.lines.length).toBeGreaterThan(1);
    expect(f.lines[1].x).toBeGreaterThan(f.lines[0].x);
    expect(f.lines[1].y).toBeCloseTo(f.lines[0].y);
    expect(onPage(r, f)).toBe(true);
  });

  it('cuts with an ellipsis at the smallest size what cannot fit otherwise', () => {
    const r = req({ text: 'a'.repeat(5000), x: 10, y: 10, maxWidth: 50 });
    const f = fitText(r, mono);
    expect(f.size).toBe(MIN_SIZE);
    expect(f.lines.length).toBeGreaterThan(0);
    expect(f.lines[f.lines.length - 1].text.endsWith('…')).toBe(true);
    expect(onPage(r, f)).toBe(true);
  });

  it('draws nothing when the field sits on the edge its text runs into', () => {
    const f = fitText(req({ x: 400 }), mono);
    expect(f.lines).toEqual([]);
  });

  it('keeps every drawn line on the page, whatever the position, size, rotation and text', () => {
    let seed = 42;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 500; i++) {
      const words = Array.from({ length: 1 + Math.floor(rand() * 20) }, () => 'ā'.repeat(1 + Math.floor(rand() * 15)));
      const r = req({
        text: words.join(' '),
        x: rand() * page.width,
        y: rand() * page.height,
        size: 1 + rand() * 60,
        rotation: rand() * 720 - 360,
        maxWidth: rand() < 0.5 ? null : 1 + rand() * 300,
      });
      const f = fitText(r, mono);
      expect(onPage(r, f)).toBe(true);
      if (r.maxWidth !== null) expect(f.lines.every((l) => l.width <= r.maxWidth! + 1e-6)).toBe(true);
    }
  });
});
