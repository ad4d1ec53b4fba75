import { Field, InputType, Int } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';

/** The typed `metaDataUpdate` input of GraphQL mutations (REST contract section 1). */
@InputType('MetaDataUpdateInput', { description: "A versioned change of a record's metaData at one key path." })
export class MetaDataUpdateInput {
  @Field(() => Int, { description: 'The metaDataVersion the change was computed from; another current version is 409 version_conflict.' })
  expectedVersion!: number;

  @Field({ description: 'Dot-separated key path (a.b.c); "" replaces the whole object (value must then be an object).' })
  path!: string;

  @Field(() => GraphQLJSON, {
    nullable: true,
    description: 'The value set at path (objects are created on the way); null removes the key.',
  })
  value?: unknown;
}

/** The plain object the services read (`value` left out in GraphQL means null: remove the key). */
export function metaDataUpdateOf(input: MetaDataUpdateInput | null | undefined): Record<string, unknown> | undefined {
  if (!input) return undefined;
  return { expectedVersion: input.expectedVersion, path: input.path, value: input.value ?? null };
}
