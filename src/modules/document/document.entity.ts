import { Entity, Property } from '@mikro-orm/core';
import { TenantEntity } from '../../shared/base.entity';
import type { DocumentEntityType } from '../../kernel/documents';
import type { TemplateField } from './template.checks';

/**
 * A PDF template of one gift card or subscription: the uploaded file's first page with the
 * fields drawn on it. The file's bytes live in `pdf_file` (written in the same transaction as
 * this row); `fileId` points at them.
 */
@Entity({ tableName: 'pdf_template' })
export class PdfTemplate extends TenantEntity {
  @Property({ type: 'text', fieldName: 'entity_type' })
  entityType!: DocumentEntityType;

  @Property({ type: 'uuid', fieldName: 'entity_id' })
  entityId!: string;

  @Property({ type: 'json' })
  fields: TemplateField[] = [];

  /** The first page's size in points, read from the file when it was stored. */
  @Property({ type: 'double', fieldName: 'page_width' })
  pageWidth!: number;

  @Property({ type: 'double', fieldName: 'page_height' })
  pageHeight!: number;

  @Property({ type: 'uuid', fieldName: 'file_id' })
  fileId!: string;
}
