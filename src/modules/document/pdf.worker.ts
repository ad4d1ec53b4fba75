import { serveTasks } from '../../kernel/thread-pool';
import { handlePdfTask } from './pdf-task';

/** Loaded in a worker thread (pdf-threads.ts): reads uploaded templates and draws PDFs from them. */
serveTasks(handlePdfTask);
