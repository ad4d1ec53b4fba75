import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { defineEnum, DOC, PART_OF_RECORD } from '../../kernel/graphql-types';
import { connectionType } from '../../kernel/connection';
import type { ApiKeyState } from './company.entity';

export const ApiKeyStateEnum = defineEnum<ApiKeyState>('ApiKeyState', 'Whether an API key is still accepted.', {
  active: 'Accepted on requests.',
  revoked: 'Refused (401) from the request after revocation on.',
});

@ObjectType('Company', { description: 'A business owned by a merchant; the root of every other record.' })
export class CompanyType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field({ description: 'Display name.' }) name!: string;
  @Field(() => ID, { description: 'The merchant account owning the company.' }) ownerID!: string;
  @Field({ description: 'IANA time zone in which local hours, dates and days of week of the company are read.' }) timeZone!: string;
  @Field({ description: 'Whether the company is enabled.' }) enabled!: boolean;
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

export const CompanyConnectionType = connectionType('Company', () => CompanyType, 'Companies.', 'companies');

@InputType({ description: 'A new company.' })
export class CreateCompanyInput {
  @Field({ description: 'Display name.' }) name!: string;
  @Field({ description: 'IANA time zone, e.g. Europe/Riga' }) timeZone!: string;
}

@ObjectType('PermissionGrant', { description: 'Permissions an API key holds in one scope.' })
export class PermissionGrantType {
  @Field({ description: 'A company id, or `*` for every company of the merchant.' }) companyID!: string;
  @Field(() => [String], { description: 'Permissions such as `bookings.read`, `bookings.*` or `*` (README, contract section 2).' })
  permissions!: string[];
}

@InputType('PermissionGrantInput', { description: 'Permissions to grant in one scope.' })
export class PermissionGrantInput {
  @Field({ description: 'A company id, or `*` for every company of the merchant.' }) companyID!: string;
  @Field(() => [String], { description: 'Permissions such as `bookings.read`, `bookings.*`, `client.read` or `*`.' })
  permissions!: string[];
}

/** `{scope: [permission]}` (REST) as a list of grants, scopes in their stored order. */
export const grantsOf = (p: Record<string, string[]>): PermissionGrantType[] =>
  Object.entries(p).map(([companyID, permissions]) => ({ companyID, permissions }));

@ObjectType('ApiKey', { description: 'A credential of the merchant; its secret is shown only once, by createApiKey.' })
export class ApiKeyType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field({ description: 'Name given at creation.' }) name!: string;
  @Field({ description: 'The first characters of the secret, to recognise the key.' }) keyPrefix!: string;
  permissions!: Record<string, string[]>;
  @Field(() => [PermissionGrantType], { name: 'permissions', complexity: PART_OF_RECORD, description: 'What the key may do, per company.' })
  permissionGrants(): PermissionGrantType[] {
    return grantsOf(this.permissions);
  }
  @Field(() => ApiKeyStateEnum, { description: 'Whether the key is still accepted.' }) state!: string;
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { nullable: true, description: 'When the key was revoked; null while active.' }) revokedAt!: string | null;
}

@ObjectType('CreatedApiKey', { description: 'A new API key with its secret, which is never shown again.' })
export class CreatedApiKeyType extends ApiKeyType {
  @Field({ description: 'The secret, sent as the `X-API-Key` header.' }) key!: string;
}

export const ApiKeyConnectionType = connectionType('ApiKey', () => ApiKeyType, 'API keys, newest first.', 'apiKeys');

@InputType({ description: 'A new API key.' })
export class CreateApiKeyInput {
  @Field({ description: 'A name to recognise the key by.' }) name!: string;
  @Field(() => [PermissionGrantInput], { description: 'What the key may do; at most what the creating key holds.' })
  permissions!: PermissionGrantInput[];
}
