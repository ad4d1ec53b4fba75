import type { DocumentEntityType } from '../../kernel/documents';
import { formatTimestamp } from '../../shared/time';
import type { PdfTemplate } from './document.entity';
import { PDF_BUCKET, storageKeyOf } from './pdf-file.store';
import type { TemplateField } from './template.checks';

/** A PDF template as both APIs answer it (specification, "PDF template"). */
export interface TemplateJson {
  id: string;
  companyID: string;
  entityType: DocumentEntityType;
  entityID: string;
  fields: TemplateField[];
  pageWidth: number;
  pageHeight: number;
  storageBucket: string;
  storageFileKey: string;
  createdAt: string;
  updatedAt: string;
}

export function templateJson(t: PdfTemplate): TemplateJson {
  return {
    id: t.id,
    companyID: t.companyId,
    entityType: t.entityType,
    entityID: t.entityId,
    fields: t.fields.map((f) => ({ ...f, maxWidth: f.maxWidth ?? null })),
    pageWidth: t.pageWidth,
    pageHeight: t.pageHeight,
    storageBucket: PDF_BUCKET,
    storageFileKey: storageKeyOf(t.fileId),
    createdAt: formatTimestamp(t.createdAt)!,
    updatedAt: formatTimestamp(t.updatedAt)!,
  };
}

/** Where a template's file is downloaded (merchant API, `pdf.read`). */
export function templateFilePath(companyId: string, entityType: DocumentEntityType, entityId: string): string {
  return `/v1/companies/${companyId}/pdf-templates/${entityType}/${entityId}/file`;
}
