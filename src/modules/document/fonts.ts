import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Embedded Unicode faces: Noto Sans (SIL Open Font License, shipped by the
 * `@expo-google-fonts/noto-sans` npm package). It covers Latin with every European accent
 * (Latvian ā č ē ģ ī ķ ļ ņ š ū ž, Polish, German), Greek and Cyrillic, which the PDF standard
 * fonts (WinAnsi, about Latin-1) cannot draw.
 */
export const NOTO_FONT_NAMES = ['noto_sans', 'noto_sans_bold', 'noto_sans_italic', 'noto_sans_bold_italic'] as const;
export type NotoFontName = (typeof NOTO_FONT_NAMES)[number];

/**
 * The PDF standard fonts a field may use, by their PostScript names (Symbol and ZapfDingbats,
 * which draw no text, aside). Every PDF reader has them, so nothing is embedded; they draw the
 * WinAnsi characters only (Latin-1 and a few more, such as € Š š Ž ž), so a value with any other
 * character is drawn in the matching Noto Sans face instead.
 */
export const STANDARD_FONTS = {
  Helvetica: 'noto_sans',
  'Helvetica-Bold': 'noto_sans_bold',
  'Helvetica-Oblique': 'noto_sans_italic',
  'Helvetica-BoldOblique': 'noto_sans_bold_italic',
  'Times-Roman': 'noto_sans',
  'Times-Bold': 'noto_sans_bold',
  'Times-Italic': 'noto_sans_italic',
  'Times-BoldItalic': 'noto_sans_bold_italic',
  Courier: 'noto_sans',
  'Courier-Bold': 'noto_sans_bold',
  'Courier-Oblique': 'noto_sans_italic',
  'Courier-BoldOblique': 'noto_sans_bold_italic',
} as const satisfies Record<string, NotoFontName>;
export type StandardFontName = keyof typeof STANDARD_FONTS;
export const STANDARD_FONT_NAMES = Object.keys(STANDARD_FONTS) as StandardFontName[];

/** Fonts a template field may use: the standard fonts by PostScript name, then the Noto Sans faces. */
export const FONT_NAMES = [...STANDARD_FONT_NAMES, ...NOTO_FONT_NAMES] as const;
export type FontName = StandardFontName | NotoFontName;

export const DEFAULT_FONT: FontName = 'noto_sans';

export const isStandardFont = (name: FontName): name is StandardFontName => Object.hasOwn(STANDARD_FONTS, name);

/** The Noto Sans face that draws what a font cannot: the same weight and slant. */
export const notoFaceOf = (name: FontName): NotoFontName => (isStandardFont(name) ? STANDARD_FONTS[name] : name);

const FILES: Record<NotoFontName, string> = {
  noto_sans: '400Regular/NotoSans_400Regular.ttf',
  noto_sans_bold: '700Bold/NotoSans_700Bold.ttf',
  noto_sans_italic: '400Regular_Italic/NotoSans_400Regular_Italic.ttf',
  noto_sans_bold_italic: '700Bold_Italic/NotoSans_700Bold_Italic.ttf',
};

/** The package's folder, found through its package.json (its main entry is for React Native). */
let packageDir: string | undefined;

/** Where a Noto Sans face's TrueType file is on disk. */
export function fontPath(name: NotoFontName): string {
  packageDir ??= dirname(require.resolve('@expo-google-fonts/noto-sans/package.json'));
  return join(packageDir, FILES[name]);
}

const loaded = new Map<NotoFontName, Uint8Array>();

/** A Noto Sans face's TrueType bytes, read once per process. */
export function fontBytes(name: NotoFontName): Uint8Array {
  let bytes = loaded.get(name);
  if (!bytes) {
    bytes = new Uint8Array(readFileSync(fontPath(name)));
    loaded.set(name, bytes);
  }
  return bytes;
}
