import { Entity, Property } from '@mikro-orm/core';
import { BaseEntity } from '../../shared/base.entity';
import type { Permissions } from '../../kernel/context';

@Entity({ tableName: 'merchant' })
export class Merchant extends BaseEntity {
  @Property({ type: 'text' })
  name!: string;
}

/** Whether an API key is still accepted. */
export const API_KEY_STATES = ['active', 'revoked'] as const;
export type ApiKeyState = (typeof API_KEY_STATES)[number];

@Entity({ tableName: 'api_key' })
export class ApiKey extends BaseEntity {
  @Property({ type: 'uuid', fieldName: 'merchant_id' })
  merchantId!: string;

  @Property({ type: 'text' })
  name!: string;

  /** sha256 of the secret; the secret itself is never stored. */
  @Property({ type: 'text', fieldName: 'key_hash' })
  keyHash!: string;

  /** First characters of the secret, to tell keys apart in listings. */
  @Property({ type: 'text', fieldName: 'key_prefix' })
  keyPrefix!: string;

  @Property({ type: 'json' })
  permissions!: Permissions;

  @Property({ type: 'text' })
  state: ApiKeyState = 'active';

  @Property({ type: 'timestamptz', fieldName: 'revoked_at', nullable: true })
  revokedAt: Date | null = null;
}

@Entity({ tableName: 'company' })
export class Company extends BaseEntity {
  @Property({ type: 'uuid', fieldName: 'merchant_id' })
  merchantId!: string;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text', fieldName: 'time_zone' })
  timeZone!: string;

  @Property({ type: 'boolean' })
  enabled: boolean = true;
}
