import type { AppModule } from '../../kernel/module';
import { PdfTemplate } from './document.entity';
import { DocumentResolver } from './document.resolver';
import { documentRoutes } from './document.routes';
import { closePdfThreads } from './pdf-threads';
import { documentPrinter } from './print';

/**
 * PDF documents: templates (upload, metadata, download), the PDF of a printable item (through
 * the sources other modules register, kernel/documents.ts) and receipts of paid transactions,
 * downloaded or printed for e-mails (`printer`, the server's `deps.print`).
 * Uploaded PDFs are read, and templates drawn, on worker threads of its own (pdf-threads.ts).
 */
export const documentModule: AppModule = {
  name: 'document',
  description: 'PDF templates and the PDFs drawn from them (tickets, gift cards, contracts), and payment receipts.',
  entities: [PdfTemplate],
  resolvers: [DocumentResolver],
  routes: documentRoutes,
  printer: documentPrinter,
  close: closePdfThreads,
};
