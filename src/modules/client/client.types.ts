import { connectionType } from '../../kernel/connection';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { JSONObjectScalar } from '../../kernel/graphql-scalars';
import { defineEnum, DOC, MetaDataUpdateInput } from '../../kernel/graphql-types';
import type { MetaData } from '../../shared/metadata';

export const ClientStateEnum = defineEnum('ClientState', 'Whether a client may use the client interface.', {
  active: 'May log in, refresh tokens and book (the state of a new client).',
  blocked: 'Cannot log in, refresh tokens or book (`forbidden`).',
});

const CLIENT_LANGUAGE =
  "BCP 47 language tag (en, lv, en-GB): the language of the client's e-mails when a template exists for it; null: none.";

@ObjectType('Client', { description: 'An end user of one company.' })
export class ClientType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => ID, { description: DOC.companyID }) companyID!: string;
  @Field({ description: "The integrator's user id; unique within the company." }) externalUserID!: string;
  @Field({ description: 'Email address.' }) email!: string;
  @Field(() => String, { nullable: true, description: 'First name; null when not given.' }) firstName!: string | null;
  @Field(() => String, { nullable: true, description: 'Last name; null when not given.' }) lastName!: string | null;
  @Field(() => String, { nullable: true, description: CLIENT_LANGUAGE }) language!: string | null;
  @Field(() => JSONObjectScalar, { description: DOC.metaData }) metaData!: MetaData;
  @Field(() => Int, { description: DOC.metaDataVersion }) metaDataVersion!: number;
  @Field(() => ClientStateEnum, { description: 'Whether the client may log in and book.' }) state!: string;
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

export const ClientConnectionType = connectionType('Client', () => ClientType, 'Clients, oldest first (then by id).', 'clients');

@ObjectType('TokenPair', { description: 'Client credentials: a short-lived access token and a single-use refresh token.' })
export class TokenPairType {
  @Field({ description: 'Send as `Authorization: Bearer <accessToken>`.' }) accessToken!: string;
  @Field({ description: 'Works once; exchange it with refreshClientTokens.' }) refreshToken!: string;
  @Field(() => Date, { description: 'When the access token expires.' }) expiresAt!: string;
  @Field(() => Int, { description: 'Lifetime of the access token in seconds.' }) expiresIn!: number;
}

@InputType({ description: 'A new client.' })
export class CreateClientInput {
  @Field({ description: 'Email address.' }) email!: string;
  @Field({ description: "The integrator's user id; unique within the company (else `conflict`)." }) externalUserID!: string;
  @Field(() => String, { nullable: true, description: 'First name.' }) firstName?: string | null;
  @Field(() => String, { nullable: true, description: 'Last name.' }) lastName?: string | null;
  @Field(() => String, { nullable: true, description: CLIENT_LANGUAGE }) language?: string | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: DOC.metaDataInput }) metaData?: MetaData | null;
}

@InputType({ description: 'Fields of a client to change; a field left out keeps its value.' })
export class UpdateClientInput {
  @Field(() => String, { nullable: true, description: 'Email address.' }) email?: string | null;
  @Field(() => String, { nullable: true, description: 'null clears the name.' }) firstName?: string | null;
  @Field(() => String, { nullable: true, description: 'null clears the name.' }) lastName?: string | null;
  @Field(() => String, { nullable: true, description: `${CLIENT_LANGUAGE} null clears it.` }) language?: string | null;
  @Field(() => MetaDataUpdateInput, { nullable: true, description: DOC.metaDataUpdate }) metaDataUpdate?: MetaDataUpdateInput | null;
  @Field(() => ClientStateEnum, { nullable: true, description: "Blocking revokes the client's refresh tokens." }) state?: string | null;
}

@InputType({ description: 'Which clients to find; every filter given must match.' })
export class ClientSearchFilter {
  @Field(() => ID, { nullable: true, description: 'The client with this id.' }) clientID?: string | null;
  @Field(() => String, { nullable: true, description: 'Exact, case-insensitive.' }) email?: string | null;
  @Field(() => String, { nullable: true, description: 'The client with this external user id.' }) externalUserID?: string | null;
  @Field(() => String, { nullable: true, description: 'Case-insensitive substring of first name, last name, email or a metaData value.' })
  query?: string | null;
}

@InputType({ description: 'Logs a client in, creating it on first login.' })
export class ClientLoginInput {
  @Field(() => ID, { description: 'The company the client belongs to.' }) companyID!: string;
  @Field({ description: 'Email address (updates a known client).' }) email!: string;
  @Field({ description: "The integrator's user id the backend has authenticated." }) externalUserID!: string;
  @Field(() => String, { nullable: true, description: 'First name.' }) firstName?: string | null;
  @Field(() => String, { nullable: true, description: 'Last name.' }) lastName?: string | null;
  @Field(() => String, { nullable: true, description: `${CLIENT_LANGUAGE} Updates a known client when sent.` }) language?: string | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: 'Used only when the login creates the client.' })
  metaData?: MetaData | null;
}
