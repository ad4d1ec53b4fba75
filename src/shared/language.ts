/**
 * Language tags (BCP 47) as clients and companies give them: the language of a client's
 * e-mails, a company's default and a template's language are one canonical form each.
 */

/** A BCP 47 language tag in its canonical form (`en`, `lv`, `en-GB`), or null when it is not one. */
export function canonicalLanguage(v: unknown): string | null {
  if (typeof v !== 'string' || v.length === 0 || v.length > 35 || !/^[A-Za-z0-9-]+$/.test(v)) return null;
  try {
    return Intl.getCanonicalLocales(v)[0] ?? null;
  } catch {
    return null;
  }
}

/** What a refused tag is told. */
export const LANGUAGE_RULE = 'must be a BCP 47 language tag (en, lv, en-GB)';
