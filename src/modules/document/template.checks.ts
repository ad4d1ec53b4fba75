import { DOCUMENT_FIELDS, type DocumentEntityType, type DocumentFieldName } from '../../kernel/documents';
import { invalid } from '../../shared/errors';
import { Check } from '../../shared/validate';
import { DEFAULT_FONT, FONT_NAMES, type FontName } from './fonts';

/** One value drawn on a template: where (points from the bottom-left of the first page) and how. */
export interface TemplateField {
  name: DocumentFieldName;
  x: number;
  y: number;
  fontName: FontName;
  fontSize: number;
  /** `#RRGGBB` */
  color: string;
  /** 0 (invisible) to 1 (opaque) */
  opacity: number;
  /** degrees, counter-clockwise around (x, y) */
  rotation: number;
  /** the widest the value may be drawn, in points; null: up to the page's edge */
  maxWidth: number | null;
}

export interface PageSize {
  width: number;
  height: number;
}

export const MAX_FIELDS = 50;
export const FIELD_DEFAULTS = { fontName: DEFAULT_FONT, fontSize: 12, color: '#000000', opacity: 1, rotation: 0, maxWidth: null };
/** PDF's largest page side (14,400 points = 200 inches). */
export const MAX_COORDINATE = 14_400;

/**
 * Reads the `fields` of a template: a JSON array as text (the multipart part) or an array
 * (GraphQL). Every name must be one the entity type offers, every number in range, and every
 * position on the page when its size is known. One 400 lists every problem.
 */
export function parseFields(raw: unknown, entityType: DocumentEntityType, page: PageSize | null): TemplateField[] {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw invalid('fields must be a JSON array of field definitions', [{ path: 'fields', message: 'is not valid JSON' }]);
    }
  }
  if (!Array.isArray(value))
    throw invalid('fields must be a JSON array of field definitions', [{ path: 'fields', message: 'must be an array' }]);
  const c = new Check();
  if (value.length > MAX_FIELDS) c.fail('fields', `must have at most ${MAX_FIELDS} entries`);
  const allowed: readonly string[] = DOCUMENT_FIELDS[entityType];
  const out: TemplateField[] = [];
  value.slice(0, MAX_FIELDS).forEach((f, i) => {
    const at = `fields[${i}]`;
    const o = c.object(at, f, true);
    if (!o) return;
    const name = c.string(`${at}.name`, o.name, { required: true, max: 64 });
    if (name !== undefined && !allowed.includes(name)) c.fail(`${at}.name`, `must be one of ${allowed.join(', ')} for ${entityType}`);
    const field: TemplateField = {
      name: name as DocumentFieldName,
      x: c.number(`${at}.x`, o.x, { required: true, min: 0, max: MAX_COORDINATE }) ?? 0,
      y: c.number(`${at}.y`, o.y, { required: true, min: 0, max: MAX_COORDINATE }) ?? 0,
      fontName: c.oneOf(`${at}.fontName`, o.fontName, FONT_NAMES) ?? FIELD_DEFAULTS.fontName,
      fontSize: c.number(`${at}.fontSize`, o.fontSize, { min: 1, max: 200 }) ?? FIELD_DEFAULTS.fontSize,
      color: c.color(`${at}.color`, o.color) ?? FIELD_DEFAULTS.color,
      opacity: c.number(`${at}.opacity`, o.opacity, { min: 0, max: 1 }) ?? FIELD_DEFAULTS.opacity,
      rotation: c.number(`${at}.rotation`, o.rotation, { min: -360, max: 360 }) ?? FIELD_DEFAULTS.rotation,
      maxWidth: c.number(`${at}.maxWidth`, o.maxWidth, { min: 1, max: MAX_COORDINATE }) ?? FIELD_DEFAULTS.maxWidth,
    };
    out.push(field);
  });
  c.done('invalid template fields');
  if (page) checkOnPage(out, page);
  return out;
}

/** Every field's position lies on the page (a new file must fit the stored fields, and the other way round). */
export function checkOnPage(fields: readonly TemplateField[], page: PageSize): void {
  const c = new Check();
  fields.forEach((f, i) => {
    if (f.x > page.width) c.fail(`fields[${i}].x`, `must be at most the page width ${round(page.width)}`);
    if (f.y > page.height) c.fail(`fields[${i}].y`, `must be at most the page height ${round(page.height)}`);
  });
  c.done('a field lies outside the page');
}

const round = (n: number) => Math.round(n * 100) / 100;
