import { serveTasks } from '../../kernel/thread-pool';
import { timesJson } from './availability.compute';

/** Loaded in a worker thread (threads.ts): answers times requests from their snapshot documents. */
serveTasks(timesJson);
