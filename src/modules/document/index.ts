import type { AppModule } from '../../kernel/module';
import { PdfTemplate } from './document.entity';
import { DocumentResolver } from './document.resolver';
import { documentRoutes } from './document.routes';

/**
 * PDF documents: templates (upload, metadata, download), the PDF of a printable item (through
 * the sources other modules register, kernel/documents.ts) and receipts of paid transactions.
 */
export const documentModule: AppModule = {
  name: 'document',
  entities: [PdfTemplate],
  resolvers: [DocumentResolver],
  routes: documentRoutes,
};
