import { DomainError } from '../../shared/errors';
import { parseFields } from './template.checks';

const page = { width: 595, height: 420 };

function problems(fn: () => unknown): { code: string; details: string[] } {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return { code: err.code, details: (err.details ?? []).map((d) => `${d.path} ${d.message}`) };
    throw err;
  }
  throw new Error('expected a 400');
}

describe('template fields', () => {
  it('reads the JSON text of the fields part, filling in the default styles', () => {
    const fields = parseFields(
      '[{"name":"code","x":10,"y":20},{"name":"amount","x":100.5,"y":50,"fontName":"noto_sans_bold","fontSize":24,"color":"#aa0000","opacity":0.5,"rotation":-30,"maxWidth":200}]',
      'gift_card',
      page,
    );
    expect(fields).toEqual([
      { name: 'code', x: 10, y: 20, fontName: 'noto_sans', fontSize: 12, color: '#000000', opacity: 1, rotation: 0, maxWidth: null },
      {
        name: 'amount',
        x: 100.5,
        y: 50,
        fontName: 'noto_sans_bold',
        fontSize: 24,
        color: '#AA0000',
        opacity: 0.5,
        rotation: -30,
        maxWidth: 200,
      },
    ]);
  });

  it('refuses fields that are not JSON or not an array', () => {
    expect(problems(() => parseFields('[{"name":', 'gift_card', page))).toEqual({
      code: 'invalid_request',
      details: ['fields is not valid JSON'],
    });
    expect(problems(() => parseFields('{"name":"code"}', 'gift_card', page)).details).toEqual(['fields must be an array']);
  });

  it('accepts only the names the entity type offers', () => {
    expect(parseFields([{ name: 'activeFrom', x: 1, y: 1 }], 'membership', page)).toHaveLength(1);
    const p = problems(() => parseFields([{ name: 'activeFrom', x: 1, y: 1 }], 'gift_card', page));
    expect(p.details[0]).toMatch(/^fields\[0\]\.name must be one of code, title, amount, currency, validUntil, clientName, clientEmail/);
  });

  it('lists every value out of range in one answer', () => {
    const p = problems(() =>
      parseFields(
        [{ name: 'code', x: -1, y: 'a', fontName: 'Arial', fontSize: 0, color: 'red', opacity: 2, rotation: 400, maxWidth: 0 }],
        'gift_card',
        page,
      ),
    );
    expect(p.details).toEqual([
      'fields[0].x must be at least 0',
      'fields[0].y must be a number',
      'fields[0].fontName must be one of Helvetica, Helvetica-Bold, Helvetica-Oblique, Helvetica-BoldOblique, Times-Roman, ' +
        'Times-Bold, Times-Italic, Times-BoldItalic, Courier, Courier-Bold, Courier-Oblique, Courier-BoldOblique, ' +
        'noto_sans, noto_sans_bold, noto_sans_italic, noto_sans_bold_italic',
      'fields[0].fontSize must be at least 1',
      'fields[0].color must be a color #RRGGBB',
      'fields[0].opacity must be at most 1',
      'fields[0].rotation must be at most 360',
      'fields[0].maxWidth must be at least 1',
    ]);
  });

  it('accepts the PDF standard fonts by PostScript name and the Noto Sans faces, exactly as spelt', () => {
    const names = ['Helvetica-Bold', 'Times-Roman', 'Courier-BoldOblique', 'noto_sans_italic'];
    const fields = parseFields(
      names.map((fontName) => ({ name: 'code', x: 1, y: 1, fontName })),
      'gift_card',
      page,
    );
    expect(fields.map((f) => f.fontName)).toEqual(names);
    for (const fontName of ['helvetica-bold', 'Helvetica_Bold', 'Times', 'Symbol', 'ZapfDingbats'])
      expect(problems(() => parseFields([{ name: 'code', x: 1, y: 1, fontName }], 'gift_card', page)).details[0]).toMatch(
        /^fields\[0\]\.fontName must be one of Helvetica, /,
      );
  });

  it('keeps every position on the page', () => {
    const p = problems(() => parseFields([{ name: 'code', x: 600, y: 421 }], 'gift_card', page));
    expect(p.details).toEqual(['fields[0].x must be at most the page width 595', 'fields[0].y must be at most the page height 420']);
  });

  it('refuses more than 50 fields', () => {
    const many = Array.from({ length: 51 }, () => ({ name: 'code', x: 1, y: 1 }));
    expect(problems(() => parseFields(many, 'gift_card', page)).details).toEqual(['fields must have at most 50 entries']);
  });
});
