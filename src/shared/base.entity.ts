import { PrimaryKey, Property } from '@mikro-orm/core';
import { newId } from './ids';

/** UUID id and timestamps shared by every record. */
export abstract class BaseEntity {
  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @Property({ type: 'timestamptz', fieldName: 'created_at' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', fieldName: 'updated_at', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
