import { GraphQLError, type ASTVisitor, type ValidationContext } from 'graphql';

/**
 * Refuses a document whose string literals hold a NUL character (written `\u0000` in GraphQL):
 * PostgreSQL cannot store it, and the REST guard (input-guards.ts) only sees the raw JSON of
 * the request, where the escape is still six plain characters. Variables are checked there.
 */
export function noNulStringsRule(context: ValidationContext): ASTVisitor {
  return {
    StringValue(node) {
      if (node.value.includes('\u0000')) {
        context.reportError(
          new GraphQLError('string values must not contain NUL characters', { nodes: [node], extensions: { code: 'invalid_request' } }),
        );
      }
    },
  };
}
