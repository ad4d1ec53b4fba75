import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Fonts a template field may use. Every one is Noto Sans (SIL Open Font License, shipped by the
 * `@expo-google-fonts/noto-sans` npm package): it covers Latin with every European accent
 * (Latvian ā č ē ģ ī ķ ļ ņ š ū ž, Polish, German), Greek and Cyrillic, which the PDF standard
 * fonts (Latin-1 only) cannot draw. Names are lowercase, as enumerations are on the wire.
 */
export const FONT_NAMES = ['noto_sans', 'noto_sans_bold', 'noto_sans_italic', 'noto_sans_bold_italic'] as const;
export type FontName = (typeof FONT_NAMES)[number];

export const DEFAULT_FONT: FontName = 'noto_sans';

const FILES: Record<FontName, string> = {
  noto_sans: '400Regular/NotoSans_400Regular.ttf',
  noto_sans_bold: '700Bold/NotoSans_700Bold.ttf',
  noto_sans_italic: '400Regular_Italic/NotoSans_400Regular_Italic.ttf',
  noto_sans_bold_italic: '700Bold_Italic/NotoSans_700Bold_Italic.ttf',
};

/** The package's folder, found through its package.json (its main entry is for React Native). */
let packageDir: string | undefined;

/** Where a font's TrueType file is on disk. */
export function fontPath(name: FontName): string {
  packageDir ??= dirname(require.resolve('@expo-google-fonts/noto-sans/package.json'));
  return join(packageDir, FILES[name]);
}

const loaded = new Map<FontName, Uint8Array>();

/** A font's TrueType bytes, read once per process. */
export function fontBytes(name: FontName): Uint8Array {
  let bytes = loaded.get(name);
  if (!bytes) {
    bytes = new Uint8Array(readFileSync(fontPath(name)));
    loaded.set(name, bytes);
  }
  return bytes;
}
