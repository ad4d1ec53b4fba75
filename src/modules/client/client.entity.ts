import { Entity, Property } from '@mikro-orm/core';
import { MetaEntity, TenantEntity } from '../../shared/base.entity';

export const CLIENT_STATES = ['active', 'blocked'] as const;
export type ClientState = (typeof CLIENT_STATES)[number];

/** An end user of one company (the same person in two companies is two clients). */
@Entity({ tableName: 'client' })
export class Client extends MetaEntity {
  /** The integrator's id for the user; unique within the company. */
  @Property({ type: 'text', fieldName: 'external_user_id' })
  externalUserId!: string;

  /** Stored as given; compared case-insensitively (index on lower(email)). */
  @Property({ type: 'text' })
  email!: string;

  @Property({ type: 'text', fieldName: 'first_name', nullable: true })
  firstName: string | null = null;

  @Property({ type: 'text', fieldName: 'last_name', nullable: true })
  lastName: string | null = null;

  @Property({ type: 'text' })
  state: ClientState = 'active';

  /** BCP 47, canonical (`lv-LV`); the language of the client's e-mails when a template exists for it. */
  @Property({ type: 'text', nullable: true })
  language: string | null = null;
}

/**
 * One refresh token of a client. Only the sha256 of the secret is stored. Every token
 * descended from one login shares `familyId`, so a replayed token can revoke them all.
 */
@Entity({ tableName: 'client_refresh_token' })
export class ClientRefreshToken extends TenantEntity {
  @Property({ type: 'uuid', fieldName: 'client_id' })
  clientId!: string;

  @Property({ type: 'uuid', fieldName: 'family_id' })
  familyId!: string;

  @Property({ type: 'text', fieldName: 'token_hash' })
  tokenHash!: string;

  @Property({ type: 'timestamptz', fieldName: 'expires_at' })
  expiresAt!: Date;

  /** Set when the token was exchanged; a second exchange is a replay. */
  @Property({ type: 'timestamptz', fieldName: 'used_at', nullable: true })
  usedAt: Date | null = null;

  @Property({ type: 'timestamptz', fieldName: 'revoked_at', nullable: true })
  revokedAt: Date | null = null;
}
