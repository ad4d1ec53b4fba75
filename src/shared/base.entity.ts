import { BeforeUpdate, PrimaryKey, Property, type EventArgs } from '@mikro-orm/core';
import { newId } from './ids';
import { claimMetaDataVersion, type MetaData } from './metadata';

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

  /**
   * A metadata change is written only over the version it was computed from: the flush's own
   * transaction first claims the new version with `WHERE meta_data_version = <loaded>`, so of
   * two requests that read the same version exactly one writes and the other is a 409.
   */
  @BeforeUpdate()
  protected async claimMetaDataVersion(args: EventArgs<MetaEntity>): Promise<void> {
    await claimMetaDataVersion(args);
  }
}
