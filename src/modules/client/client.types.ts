import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { JSONObjectScalar } from '../../kernel/graphql-scalars';
import type { MetaData } from '../../shared/metadata';

@ObjectType('Client', { description: 'An end user of one company.' })
export class ClientType {
  @Field(() => ID) id!: string;
  @Field(() => ID) companyID!: string;
  @Field({ description: "The integrator's user id; unique within the company." }) externalUserID!: string;
  @Field() email!: string;
  @Field(() => String, { nullable: true }) firstName!: string | null;
  @Field(() => String, { nullable: true }) lastName!: string | null;
  @Field(() => JSONObjectScalar) metaData!: MetaData;
  @Field(() => Int) metaDataVersion!: number;
  @Field({ description: '`active` or `blocked` (a blocked client cannot log in, refresh tokens or book).' }) state!: string;
  @Field(() => Date) createdAt!: string;
  @Field(() => Date) updatedAt!: string;
}

@ObjectType('ClientPage')
export class ClientPageType {
  @Field(() => [ClientType]) clients!: ClientType[];
  @Field(() => Int) limit!: number;
  @Field(() => Int) offset!: number;
  @Field(() => Int) total!: number;
}

@ObjectType('TokenPair', { description: 'Client credentials: a short-lived access token and a single-use refresh token.' })
export class TokenPairType {
  @Field({ description: 'Send as `Authorization: Bearer <accessToken>`.' }) accessToken!: string;
  @Field({ description: 'Works once; exchange it with refreshClientTokens.' }) refreshToken!: string;
  @Field(() => Date) expiresAt!: string;
  @Field(() => Int, { description: 'Lifetime of the access token in seconds.' }) expiresIn!: number;
}

@InputType()
export class CreateClientInput {
  @Field() email!: string;
  @Field() externalUserID!: string;
  @Field(() => String, { nullable: true }) firstName?: string | null;
  @Field(() => String, { nullable: true }) lastName?: string | null;
  @Field(() => JSONObjectScalar, { nullable: true }) metaData?: MetaData | null;
}

@InputType()
export class UpdateClientInput {
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true, description: 'null clears the name.' }) firstName?: string | null;
  @Field(() => String, { nullable: true, description: 'null clears the name.' }) lastName?: string | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: '{expectedVersion, path, value}' }) metaDataUpdate?: Record<
    string,
    unknown
  > | null;
  @Field(() => String, { nullable: true, description: "`active` or `blocked`; blocking revokes the client's refresh tokens." }) state?:
    string | null;
}

@InputType()
export class ClientSearchFilter {
  @Field(() => ID, { nullable: true }) clientID?: string | null;
  @Field(() => String, { nullable: true, description: 'Exact, case-insensitive.' }) email?: string | null;
  @Field(() => String, { nullable: true }) externalUserID?: string | null;
  @Field(() => String, { nullable: true, description: 'Case-insensitive substring of first name, last name, email or a metaData value.' })
  query?: string | null;
}

@InputType()
export class ClientLoginInput {
  @Field(() => ID) companyID!: string;
  @Field() email!: string;
  @Field() externalUserID!: string;
  @Field(() => String, { nullable: true }) firstName?: string | null;
  @Field(() => String, { nullable: true }) lastName?: string | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: 'Used only when the login creates the client.' })
  metaData?: MetaData | null;
}
