import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { JSONObjectScalar } from '../../kernel/graphql-scalars';

@ObjectType('Company', { description: 'A business owned by a merchant; the root of every other record.' })
export class CompanyType {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field(() => ID) ownerID!: string;
  @Field() timeZone!: string;
  @Field() enabled!: boolean;
  @Field(() => Date) createdAt!: string;
  @Field(() => Date) updatedAt!: string;
}

@InputType()
export class CreateCompanyInput {
  @Field() name!: string;
  @Field({ description: 'IANA time zone, e.g. Europe/Riga' }) timeZone!: string;
}

@ObjectType('ApiKey')
export class ApiKeyType {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field({ nullable: true, description: 'The secret; returned only by createApiKey.' }) key?: string;
  @Field() keyPrefix!: string;
  @Field(() => JSONObjectScalar) permissions!: Record<string, string[]>;
  @Field() state!: string;
  @Field(() => Date) createdAt!: string;
  @Field(() => Date, { nullable: true }) revokedAt!: string | null;
}

@InputType()
export class CreateApiKeyInput {
  @Field() name!: string;
  @Field(() => JSONObjectScalar, { description: '{companyID | "*": [permission...]}' }) permissions!: Record<string, string[]>;
}
