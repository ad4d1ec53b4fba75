/**
 * The contract between the document context (PDF templates, entity PDFs) and the modules whose
 * records are printed: a gift card purchase (a voucher) and a membership contract (a
 * membership card). The document context knows those records only by entity type: each owning
 * module registers a source that reads one item's printable values, and the document context
 * looks the source up, so it imports no gift card or subscription code.
 */

/** Entity types a PDF template belongs to (REST contract, "PDF templates"). */
export const DOCUMENT_ENTITY_TYPES = ['gift_card', 'membership'] as const;
export type DocumentEntityType = (typeof DOCUMENT_ENTITY_TYPES)[number];

/** The values a template field may name, per entity type (REST contract, "PDF templates"). */
export const DOCUMENT_FIELDS = {
  gift_card: ['code', 'title', 'amount', 'currency', 'validUntil', 'clientName', 'clientEmail'],
  membership: ['code', 'title', 'activeFrom', 'expiresAt', 'status', 'clientName', 'clientEmail'],
} as const satisfies Record<DocumentEntityType, readonly string[]>;

export type DocumentFieldName = (typeof DOCUMENT_FIELDS)[DocumentEntityType][number];

/** Every field name of every entity type, in a stable order. */
export const DOCUMENT_FIELD_NAMES: readonly DocumentFieldName[] = [...new Set(Object.values(DOCUMENT_FIELDS).flat())];

/**
 * One printable value. The document context formats it the same way everywhere: money as
 * `25.00 EUR` (contract), an instant as its date in the company's time zone (`2026-12-31`).
 */
export type DocumentValue =
  { kind: 'text'; text: string } | { kind: 'money'; amount: number; currency: string } | { kind: 'date'; at: Date };

/** An item to print: the entity it was bought from and its values by field name (absent = empty). */
export interface DocumentItem {
  /** The gift card or subscription the item (purchase, contract) belongs to. */
  entityID: string;
  values: Partial<Record<DocumentFieldName, DocumentValue | null>>;
}

/**
 * Reads one item of the company for printing, or null when the company has no such item.
 * Called with the request's context (`C`: `Ctx` of kernel/context.ts, whose dependencies hold
 * the sources: hence a parameter here); reads only.
 */
export type DocumentSource<C> = (ctx: C, companyId: string, itemId: string) => Promise<DocumentItem | null>;

/** entity type -> the source of its items, built once by the composition root from every module. */
export type DocumentSources<C> = ReadonlyMap<DocumentEntityType, DocumentSource<C>>;

/** What may be printed for an e-mail: a paid transaction's receipt, or an item of an entity type. */
export type PrintedDocument = 'receipt' | DocumentEntityType;

/** A printed document: its bytes, and a file name for its download. */
export interface PrintedPdf {
  bytes: Uint8Array;
  filename: string;
}

/**
 * Prints one document of the company off the event loop (the document context's PDF threads),
 * reading with the context's EntityManager: the receipt of a paid transaction (`itemId` its id), a gift card purchase's
 * voucher or a membership contract's card (the entity's template or the default document).
 * Null when the company has no such item, or the transaction has no receipt (it is not paid).
 */
export type DocumentPrinter<C> = (ctx: C, companyId: string, document: PrintedDocument, itemId: string) => Promise<PrintedPdf | null>;

/**
 * Where an item's PDF is downloaded (merchant API, `pdf.read`), for the download URL fields of
 * the types that print (a gift card purchase, a membership contract).
 */
export function documentPdfPath(companyId: string, entityType: DocumentEntityType, entityId: string, itemId: string): string {
  return `/v1/companies/${companyId}/pdf-templates/${entityType}/${entityId}/items/${itemId}/pdf`;
}
