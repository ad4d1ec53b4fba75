/**
 * Fits one value into the space a template field has, so that nothing is drawn off the page:
 * first the value shrinks (to 70 % of the field's size), then it wraps onto more lines (each
 * line below the previous one, in the field's rotation), at ever smaller sizes; as a last
 * resort, at the smallest size, what does not fit is cut with an ellipsis. Pure: text widths
 * come from the caller's font metrics.
 */

export interface FontMetrics {
  /** advance width of `text` at `size`, in points */
  width(text: string, size: number): number;
  /** height above the baseline at `size` (positive) */
  ascent(size: number): number;
  /** depth below the baseline at `size` (positive) */
  descent(size: number): number;
}

export interface FitRequest {
  text: string;
  /** baseline origin of the first line, points from the bottom-left */
  x: number;
  y: number;
  size: number;
  /** degrees, counter-clockwise */
  rotation: number;
  /** the widest a line may be; null: up to the page's edge */
  maxWidth: number | null;
  page: { width: number; height: number };
}

export interface FittedLine {
  text: string;
  /** baseline origin of this line */
  x: number;
  y: number;
  width: number;
}

export interface FittedText {
  size: number;
  lines: FittedLine[];
}

/** Below this the text is not made any smaller. */
export const MIN_SIZE = 4;
/** Shrinking alone goes down to this share of the field's size; below it the text wraps. */
export const SHRINK_FLOOR = 0.7;
export const LINE_HEIGHT = 1.2;
const STEP = 0.95;
const EPSILON = 1e-6;
const ELLIPSIS = '…';
const MAX_CHARS = 2000;

export function fitText(req: FitRequest, metrics: FontMetrics): FittedText {
  // Longer values cannot be legible on a page anyway; the cap bounds the work of the search below.
  const text = Array.from(req.text.replace(/\s+/g, ' ').trim()).slice(0, MAX_CHARS).join('');
  if (!text) return { size: req.size, lines: [] };
  const rad = (req.rotation * Math.PI) / 180;
  const dir = { x: Math.cos(rad), y: Math.sin(rad) };
  const up = { x: -dir.y, y: dir.x };
  const room = Math.min(req.maxWidth ?? Infinity, distanceToEdge(req.x, req.y, dir, req.page));
  const sizes = sizesFrom(req.size);

  const place = (lines: string[], size: number): FittedText => {
    const lh = size * LINE_HEIGHT;
    return {
      size,
      lines: lines.map((t, k) => ({ text: t, x: req.x - k * lh * up.x, y: req.y - k * lh * up.y, width: metrics.width(t, size) })),
    };
  };
  const fits = (lines: string[], size: number): boolean => {
    const widest = Math.max(...lines.map((l) => metrics.width(l, size)));
    if (widest > room + EPSILON) return false;
    const top = metrics.ascent(size);
    const bottom = -(metrics.descent(size) + (lines.length - 1) * size * LINE_HEIGHT);
    return [
      [0, top],
      [widest, top],
      [0, bottom],
      [widest, bottom],
    ].every(([u, v]) => {
      const px = req.x + u * dir.x + v * up.x;
      const py = req.y + u * dir.y + v * up.y;
      return px >= -EPSILON && py >= -EPSILON && px <= req.page.width + EPSILON && py <= req.page.height + EPSILON;
    });
  };

  // One line, a little smaller if need be.
  for (const size of sizes) {
    if (size < req.size * SHRINK_FLOOR - EPSILON) break;
    if (fits([text], size)) return place([text], size);
  }
  // Several lines, as large as they fit.
  for (const size of sizes) {
    const lines = wrap(text, size, room, metrics);
    if (lines && fits(lines, size)) return place(lines, size);
  }
  // The smallest size: keep the lines that fit and cut the last one.
  const size = sizes[sizes.length - 1];
  const lines = wrap(text, size, room, metrics) ?? [];
  const kept: string[] = [];
  for (const line of lines) {
    if (!fits([...kept, line], size)) break;
    kept.push(line);
  }
  if (kept.length < lines.length) {
    const last = kept.pop() ?? lines[kept.length];
    const cut = truncate(last, size, room, metrics);
    if (cut && fits([...kept, cut], size)) kept.push(cut);
  }
  return place(kept, size);
}

/** The field's size, then 5 % smaller each step, down to MIN_SIZE (or the size itself when smaller). */
function sizesFrom(size: number): number[] {
  const out = [size];
  const floor = Math.min(size, MIN_SIZE);
  for (let s = size * STEP; s > floor; s *= STEP) out.push(s);
  if (out[out.length - 1] !== floor) out.push(floor);
  return out;
}

/** How far from (x, y) along `dir` the page ends (0 when the point is on or beyond an edge it faces). */
export function distanceToEdge(x: number, y: number, dir: { x: number; y: number }, page: { width: number; height: number }): number {
  let t = Infinity;
  if (dir.x > EPSILON) t = Math.min(t, (page.width - x) / dir.x);
  if (dir.x < -EPSILON) t = Math.min(t, -x / dir.x);
  if (dir.y > EPSILON) t = Math.min(t, (page.height - y) / dir.y);
  if (dir.y < -EPSILON) t = Math.min(t, -y / dir.y);
  return Math.max(0, t);
}

/** Greedy word wrap to `room`; a word wider than a line is broken between characters. Null when not one character fits. */
function wrap(text: string, size: number, room: number, m: FontMetrics): string[] | null {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line ? `${line} ${word}` : word;
    if (m.width(candidate, size) <= room + EPSILON) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    if (m.width(word, size) <= room + EPSILON) {
      line = word;
      continue;
    }
    // Break an over-long word by characters (code points, so no letter is split in two).
    for (const ch of Array.from(word)) {
      if (m.width(line + ch, size) <= room + EPSILON) line += ch;
      else {
        if (!line) return null;
        lines.push(line);
        line = ch;
      }
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** The longest start of `text` that fits `room` with an ellipsis after it, or null. */
function truncate(text: string, size: number, room: number, m: FontMetrics): string | null {
  const chars = Array.from(text);
  for (let n = chars.length - 1; n >= 0; n--) {
    const candidate = `${chars.slice(0, n).join('').trimEnd()}${ELLIPSIS}`;
    if (m.width(candidate, size) <= room + EPSILON) return candidate;
  }
  return null;
}
