import { PrimaryKey, Property } from '@mikro-orm/core';
import { newId } from './ids';
import type { MetaData } from './metadata';

/** UUID id and timestamps shared by every record. */
export abstract class BaseEntity {
  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @Property({ type: 'timestamptz', fieldName: 'created_at' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', fieldName: 'updated_at', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

/** Tenant-owned records carry `company_id` so that every query and constraint can be scoped by it. */
export abstract class TenantEntity extends BaseEntity {
  @Property({ type: 'uuid', fieldName: 'company_id' })
  companyId!: string;
}

/** Tenant records with versioned `metaData` (contract section 1). */
export abstract class MetaEntity extends TenantEntity {
  @Property({ type: 'json', fieldName: 'meta_data' })
  metaData: MetaData = {};

  @Property({ type: 'integer', fieldName: 'meta_data_version' })
  metaDataVersion: number = 1;
}
