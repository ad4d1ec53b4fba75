/**
 * E-mail addresses and display names as they may enter a message. The same rule as the
 * database's notification_address_ok: one address, nothing that could add a recipient or a header.
 */
const ADDRESS =
  /^[^\s@<>,;:"()[\]\\\u0000-\u001f\u007f]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

export const isAddress = (v: unknown): v is string => typeof v === 'string' && v.length <= 254 && ADDRESS.test(v);

/** A display name for a From header: no line breaks, control characters, quotes or angle brackets. */
export const displayName = (v: string): string =>
  v
    .replace(/[\u0000-\u001f\u007f\u2028\u2029"<>\\]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim()
    .slice(0, 100);
