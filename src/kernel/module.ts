import type { EventSubscriber } from '@mikro-orm/core';
import type { FastifyInstance } from 'fastify';
import type { AppDeps, ClientActor, Ctx } from './context';
import type { DocumentEntityType, DocumentPrinter, DocumentSource } from './documents';
import type { CodeHandler } from './codes';
import type { DirectField } from './graphql-direct';
import type { PayableItems } from './payable';

/** What a bounded context contributes to the application. */
export interface AppModule {
  name: string;
  /** What the context covers, in a sentence: the description of its tag in the OpenAPI document. */
  description: string;
  entities: Function[];
  resolvers: Function[];
  routes?: (app: FastifyInstance) => void;
  /** Resolves a client access token (the client context provides it). */
  bearer?: (token: string, deps: AppDeps) => Promise<ClientActor | null>;
  /** Releases what this module holds for a server (worker threads) when the server closes. */
  close?: (deps: AppDeps) => Promise<void>;
  /** Background work started with the server (e.g. sweepers); returns a stop function. */
  start?: (deps: AppDeps) => (() => Promise<void>) | void;
  /** How this module's payable items settle, keyed by the `itemType` their payments carry. */
  payables?: Record<string, PayableItems<Ctx>>;
  /** How this module's printable items are read for their PDF, keyed by entity type (kernel/documents.ts). */
  documents?: Partial<Record<DocumentEntityType, DocumentSource<Ctx>>>;
  /** The printer of receipts and items' documents for the server's `deps.print` (the document context). */
  printer?: (deps: AppDeps) => DocumentPrinter<Ctx>;
  /** Codes this module recognises on booking requests (promo codes, gift cards, ...). */
  codes?: CodeHandler<Ctx>[];
  /** ORM event subscribers (e.g. the audit log's), registered on the server's ORM. */
  subscribers?: EventSubscriber[];
  /** Root query fields this module answers as written JSON when asked alone (kernel/graphql-direct.ts), by field name. */
  graphqlDirect?: Record<string, DirectField>;
  /**
   * Root query fields whose operations the server may execute with its JSON writer
   * (app/graphql-written.ts) instead of graphql-js: fields answered by a read whose resolvers
   * (the root's and those below) may run again when an error leaves the operation to graphql-js.
   */
  graphqlWritten?: readonly string[];
}
