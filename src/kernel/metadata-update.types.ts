import type { MetaDataUpdateInput } from './graphql-types';

export { MetaDataUpdateInput } from './graphql-types';

/** The plain object the services read (`value` left out in GraphQL means null: remove the key). */
export function metaDataUpdateOf(input: MetaDataUpdateInput | null | undefined): Record<string, unknown> | undefined {
  if (!input) return undefined;
  return { expectedVersion: input.expectedVersion, path: input.path, value: input.value ?? null };
}
