import { Entity, Property } from '@mikro-orm/core';
import { TenantEntity } from '../../shared/base.entity';

/** A company's notification settings; a company without a row has the defaults (enabled, every event, reminders 24 h ahead, `en`). */
@Entity({ tableName: 'notification_settings' })
export class NotificationSettings extends TenantEntity {
  @Property({ type: 'boolean' })
  enabled: boolean = true;

  /** events switched off or on explicitly: `{event: bool}`; a missing event is on */
  @Property({ type: 'json' })
  events: Record<string, boolean> = {};

  @Property({ type: 'text', fieldName: 'merchant_email', nullable: true })
  merchantEmail: string | null = null;

  @Property({ type: 'text', fieldName: 'reply_to', nullable: true })
  replyTo: string | null = null;

  /** null: the company's name */
  @Property({ type: 'text', fieldName: 'sender_name', nullable: true })
  senderName: string | null = null;

  @Property({ type: 'integer', fieldName: 'reminder_hours' })
  reminderHours: number = 24;

  @Property({ type: 'text' })
  language: string = 'en';
}

/** A company's own template of one event in one language, replacing the built-in one. */
@Entity({ tableName: 'notification_template' })
export class NotificationTemplate extends TenantEntity {
  @Property({ type: 'text' })
  event!: string;

  @Property({ type: 'text' })
  language!: string;

  @Property({ type: 'text' })
  subject!: string;

  @Property({ type: 'text' })
  text!: string;

  @Property({ type: 'text' })
  html!: string;
}
