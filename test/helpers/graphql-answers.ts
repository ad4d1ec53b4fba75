/**
 * A GraphQL answer's text with its errors in a fixed order. graphql-js lists errors in the order
 * they happen, and errors of fields resolved concurrently (two failing root fields, a nested
 * list's items) happen in an order the database decides; the rest of the text is deterministic.
 * A text that is not a JSON object with more than one error is returned as it is.
 */
export function withErrorsSorted(text: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text;
  }
  if (!body || typeof body !== 'object' || !Array.isArray((body as { errors?: unknown }).errors)) return text;
  const errors = (body as { errors: unknown[] }).errors;
  if (errors.length < 2) return text;
  const sorted = errors.map((e) => JSON.stringify(e)).sort();
  // the same bytes as the answer's, but for the order of its errors
  return `${JSON.stringify({ ...(body as object), errors: sorted.map((e) => JSON.parse(e)) })}${text.endsWith('\n') ? '\n' : ''}`;
}
