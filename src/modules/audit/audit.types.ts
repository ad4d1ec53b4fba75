import { ArgsType, Field, ID, ObjectType } from 'type-graphql';
import { AUDIT_ACTOR_TYPES, type AuditActorType } from '../../kernel/audit';
import { DOC, defineEnum } from '../../kernel/graphql-types';
import { ConnectionArgs, connectionType } from '../../kernel/connection';
import { DateTimeScalar, JSONScalar } from '../../kernel/graphql-scalars';

export const AuditActorTypeEnum = defineEnum<AuditActorType>(
  'AuditActorType',
  'What kind of caller made a change.',
  Object.fromEntries(
    AUDIT_ACTOR_TYPES.map((t) => [
      t,
      {
        api_key: 'A merchant API key.',
        client: "A client's access token.",
        system: 'The server itself (background work) or an unauthenticated request.',
      }[t],
    ]),
  ) as Record<AuditActorType, string>,
);

@ObjectType('AuditActor', { description: 'Who made a change.' })
export class AuditActorType_ {
  @Field(() => AuditActorTypeEnum, { description: 'The kind of caller.' }) type!: AuditActorType;
  @Field({ description: 'The API key id, client id, or the name of the background work.' }) id!: string;
  @Field(() => String, { nullable: true, description: "The API key's name or the client's name, when known." }) name!: string | null;
}

@ObjectType('AuditFieldChange', { description: 'One changed field of a record; secrets, tokens and passwords are masked.' })
export class AuditFieldChangeType {
  @Field({ description: 'The field (as the record names it).' }) field!: string;
  @Field(() => JSONScalar, { nullable: true, description: 'The value before the change; null on creation.' }) before!: unknown;
  @Field(() => JSONScalar, { nullable: true, description: 'The value after the change; null on deletion.' }) after!: unknown;
}

@ObjectType('AuditEntry', { description: 'One recorded change of one record.' })
export class AuditEntryType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => AuditActorType_, { description: 'Who made the change.' }) actor!: AuditActorType_;
  @Field({ description: 'The operation: create, update, delete, status (a status change), or an operation of its own.' }) action!: string;
  @Field({ description: 'The kind of record (its table: booking, service, payment_provider_settings, ...).' }) recordType!: string;
  @Field({ description: 'The record id.' }) recordID!: string;
  @Field(() => [AuditFieldChangeType], { description: 'The changed fields, before and after.' }) changes!: AuditFieldChangeType[];
  @Field(() => String, { nullable: true, description: 'The X-Request-Id of the request that made the change; null for background work.' })
  requestID!: string | null;
  @Field(() => DateTimeScalar, { description: 'When the change was made.' }) createdAt!: string;
}

export const AuditEntryConnectionType = connectionType('AuditEntry', () => AuditEntryType, 'Audit log entries, newest first.', 'entries');

@ArgsType()
export class AuditLogArgs extends ConnectionArgs {
  @Field(() => ID, { description: DOC.companyArg }) companyID!: string;
  @Field(() => String, { nullable: true, description: 'Only the entries of this record id.' }) recordID?: string | null;
  @Field(() => String, { nullable: true, description: 'Only the entries of this actor id (API key id, client id).' }) actorID?:
    string | null;
  @Field(() => DateTimeScalar, { nullable: true, description: 'Only entries made at or after this instant.' }) from?: Date | null;
  @Field(() => DateTimeScalar, { nullable: true, description: 'Only entries made before this instant.' }) to?: Date | null;
}
