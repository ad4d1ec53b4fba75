// The bounds of an uploaded PDF, apart from the code that enforces them (pdf-bounds.ts), so the
// routes that announce them do not load the PDF library.

/** Uploads above this are 413 (REST contract, section 3); a stored file above it is refused when drawn. */
export const MAX_PDF_BYTES = 10 * 1024 * 1024;
/** Objects a PDF may hold, those inside object streams included (REST contract, PDF templates). */
export const MAX_PDF_OBJECTS = 1000;
/** What a PDF's compressed streams may inflate to, images aside, all streams together. */
export const MAX_INFLATED_BYTES = 50 * 1024 * 1024;
