import { connectionType } from '../../kernel/connection';
import { Field, Float, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { DOCUMENT_ENTITY_TYPES, DOCUMENT_FIELD_NAMES, type DocumentEntityType, type DocumentFieldName } from '../../kernel/documents';
import { FONT_NAMES, type FontName } from './fonts';

/** GraphQL enums whose values are the REST wire values. */
const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as Record<T, T>;

export const PdfEntityTypeEnum = enumOf(DOCUMENT_ENTITY_TYPES);
registerEnumType(PdfEntityTypeEnum, {
  name: 'PdfEntityType',
  description: 'What a PDF template prints.',
  valuesConfig: {
    gift_card: { description: 'A gift card: its purchases print as vouchers.' },
    membership: { description: 'A subscription: its contracts print as membership cards.' },
  },
});

export const PdfFieldNameEnum = enumOf(DOCUMENT_FIELD_NAMES);
const FIELD_DESCRIPTIONS: Record<DocumentFieldName, string> = {
  code: 'The purchase or contract code (gift_card, membership).',
  title: 'The gift card or subscription title (gift_card, membership).',
  amount: 'The amount with its currency, e.g. `25.00 EUR` (gift_card).',
  currency: 'The ISO 4217 currency code (gift_card).',
  validUntil: 'The last valid date, in the company time zone (gift_card).',
  clientName: "The client's first and last name (gift_card, membership).",
  clientEmail: "The client's email address (gift_card, membership).",
  activeFrom: 'The date the membership starts, in the company time zone (membership).',
  expiresAt: 'The date the membership ends, in the company time zone (membership).',
  status: 'The contract status, e.g. `active` (membership).',
};
registerEnumType(PdfFieldNameEnum, {
  name: 'PdfFieldName',
  description: 'A value a template field draws; each entity type offers its own subset.',
  valuesConfig: Object.fromEntries(DOCUMENT_FIELD_NAMES.map((n) => [n, { description: FIELD_DESCRIPTIONS[n] }])),
});

/**
 * GraphQL names cannot hold a hyphen: a standard font's value is its PostScript name with `_`
 * for `-` (`Helvetica_Bold` is `Helvetica-Bold` on the REST wire); the others are spelt as there.
 */
export const graphqlFontName = (name: FontName): string => name.replace(/-/g, '_');
export const PdfFontNameEnum = Object.fromEntries(FONT_NAMES.map((n) => [graphqlFontName(n), n])) as Record<string, FontName>;
const FONT_DESCRIPTIONS: Record<FontName, string> = {
  Helvetica: 'Helvetica (REST `Helvetica`).',
  'Helvetica-Bold': 'Helvetica bold (REST `Helvetica-Bold`).',
  'Helvetica-Oblique': 'Helvetica oblique (REST `Helvetica-Oblique`).',
  'Helvetica-BoldOblique': 'Helvetica bold oblique (REST `Helvetica-BoldOblique`).',
  'Times-Roman': 'Times roman (REST `Times-Roman`).',
  'Times-Bold': 'Times bold (REST `Times-Bold`).',
  'Times-Italic': 'Times italic (REST `Times-Italic`).',
  'Times-BoldItalic': 'Times bold italic (REST `Times-BoldItalic`).',
  Courier: 'Courier (REST `Courier`).',
  'Courier-Bold': 'Courier bold (REST `Courier-Bold`).',
  'Courier-Oblique': 'Courier oblique (REST `Courier-Oblique`).',
  'Courier-BoldOblique': 'Courier bold oblique (REST `Courier-BoldOblique`).',
  noto_sans: 'Noto Sans regular (the default).',
  noto_sans_bold: 'Noto Sans bold.',
  noto_sans_italic: 'Noto Sans italic.',
  noto_sans_bold_italic: 'Noto Sans bold italic.',
};
registerEnumType(PdfFontNameEnum, {
  name: 'PdfFontName',
  description:
    'Fonts a template field may use. The PDF standard fonts (by PostScript name, `_` for `-`) draw Latin-1 (WinAnsi) text; ' +
    'a value with any other character is drawn in the matching Noto Sans face (bold, italic for oblique), so no character is lost. ' +
    'The Noto Sans faces are embedded and draw every European alphabet (Latin, Greek, Cyrillic).',
  valuesConfig: Object.fromEntries(FONT_NAMES.map((n) => [graphqlFontName(n), { description: FONT_DESCRIPTIONS[n] }])),
});

@ObjectType('PdfTemplateField', { description: 'One value drawn on a template.' })
export class PdfTemplateFieldType {
  @Field(() => PdfFieldNameEnum, { description: 'Which value is drawn.' }) name!: DocumentFieldName;
  @Field(() => Float, { description: 'Points from the left edge of the first page to the start of the baseline.' }) x!: number;
  @Field(() => Float, { description: 'Points from the bottom edge of the first page to the baseline.' }) y!: number;
  @Field(() => PdfFontNameEnum, { description: 'The font: a PDF standard font or a Noto Sans face (see PdfFontName).' })
  fontName!: FontName;
  @Field(() => Float, { description: 'Font size in points; a value that does not fit is drawn smaller or wrapped.' }) fontSize!: number;
  @Field({ description: 'Text colour, #RRGGBB.' }) color!: string;
  @Field(() => Float, { description: 'From 0 (invisible) to 1 (opaque).' }) opacity!: number;
  @Field(() => Float, { description: 'Degrees, counter-clockwise around (x, y).' }) rotation!: number;
  @Field(() => Float, { nullable: true, description: 'The widest the value may be drawn, in points; null: up to the edge of the page.' })
  maxWidth!: number | null;
}

@ObjectType('PdfTemplate', { description: "A company's PDF template for one gift card or subscription." })
export class PdfTemplateType {
  @Field(() => ID, { description: 'Template id.' }) id!: string;
  @Field(() => ID, { description: 'The company.' }) companyID!: string;
  @Field(() => PdfEntityTypeEnum, { description: 'What the template prints.' }) entityType!: DocumentEntityType;
  @Field(() => ID, { description: 'The gift card or subscription the template belongs to.' }) entityID!: string;
  @Field(() => [PdfTemplateFieldType], { description: 'The values drawn on the first page.' }) fields!: PdfTemplateFieldType[];
  @Field(() => Float, { description: "The first page's width in points." }) pageWidth!: number;
  @Field(() => Float, { description: "The first page's height in points." }) pageHeight!: number;
  @Field({ description: 'Where the file is stored (the database table holding the bytes).' }) storageBucket!: string;
  @Field({ description: "The file's key within storageBucket." }) storageFileKey!: string;
  @Field({ description: 'Download URL of the stored file (REST, with an API key holding pdf.read).' }) fileUrl!: string;
  @Field(() => Date, { description: 'When the template was created.' }) createdAt!: string;
  @Field(() => Date, { description: 'When the template was last changed.' }) updatedAt!: string;
}

export const PdfTemplateConnectionType = connectionType(
  'PdfTemplate',
  () => PdfTemplateType,
  'PDF templates, oldest first (then by id).',
  'pdfTemplates',
);

@InputType('PdfTemplateFieldInput', { description: 'One value to draw on a template; omitted styles take their defaults.' })
export class PdfTemplateFieldInput {
  @Field(() => PdfFieldNameEnum, { description: 'Which value is drawn; it must be one the entity type offers.' }) name!: DocumentFieldName;
  @Field(() => Float, { description: 'Points from the left edge, at most the page width.' }) x!: number;
  @Field(() => Float, { description: 'Points from the bottom edge, at most the page height.' }) y!: number;
  @Field(() => PdfFontNameEnum, {
    nullable: true,
    description: 'A PDF standard font or a Noto Sans face (see PdfFontName); default noto_sans.',
  })
  fontName?: FontName | null;
  @Field(() => Float, { nullable: true, description: 'Points, 1 to 200; default 12.' }) fontSize?: number | null;
  @Field(() => String, { nullable: true, description: '#RRGGBB; default #000000.' }) color?: string | null;
  @Field(() => Float, { nullable: true, description: '0 to 1; default 1.' }) opacity?: number | null;
  @Field(() => Float, { nullable: true, description: 'Degrees, -360 to 360; default 0.' }) rotation?: number | null;
  @Field(() => Float, { nullable: true, description: 'Points; default: up to the edge of the page.' }) maxWidth?: number | null;
}
