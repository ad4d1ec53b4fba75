import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/** A secret calendar feed URL of one resource, or of the whole company (`resourceId` null). Only the token's hash is kept. */
@Entity({ tableName: 'calendar_feed' })
export class CalendarFeed {
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @Property({ type: 'uuid', fieldName: 'company_id' })
  companyId!: string;

  @Property({ type: 'uuid', fieldName: 'resource_id', nullable: true })
  resourceId: string | null = null;

  @Property({ type: 'text', fieldName: 'token_hash' })
  tokenHash!: string;

  @Property({ type: 'timestamptz', fieldName: 'created_at' })
  createdAt!: Date;
}
