import type { FieldNode, FragmentDefinitionNode, GraphQLSchema } from 'graphql';
import type { Ctx } from './context';
import type { PrewrittenJson } from './prewritten-json';

/**
 * Root query fields answered directly: a module writes the field's JSON itself, exactly as
 * graphql-js would execute it, for fields whose answers are too large to execute field by field
 * (a month of available times is 7,000 entries, 43,000 fields). The server offers an operation
 * to the field's answerer only when that field is all the operation asks (app/graphql-direct.ts);
 * anything the answerer cannot write, and every error, is left to ordinary execution, so errors
 * keep their usual shape.
 */

/** What an answerer gets: the operation's parts graphql-js would execute the field with. */
export interface DirectFieldRequest {
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  /** the operation's variables, coerced */
  variableValues: Record<string, unknown>;
  /** the field's nodes (one response key; several nodes when the field is repeated) */
  fieldNodes: readonly FieldNode[];
  /** the field's arguments, coerced as graphql-js coerces them */
  args: Record<string, unknown>;
}

/**
 * Answers a root field as JSON, or null to leave it to graphql-js. A thrown error also leaves
 * it to graphql-js (which will meet the same error and report it as usual).
 */
export type DirectField = (ctx: Ctx, req: DirectFieldRequest) => Promise<PrewrittenJson | null>;
