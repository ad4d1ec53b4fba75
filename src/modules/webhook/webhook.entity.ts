import { ArrayType, Entity, Property } from '@mikro-orm/core';
import { TenantEntity } from '../../shared/base.entity';
import type { EventType } from '../../kernel/events';

/**
 * A company's webhook endpoint. The signing secret is stored encrypted (`secretEnc`, as payment
 * signing secrets are) and leaves the server only in the answers that create or rotate it.
 * `failingSince` is when its deliveries started failing without a success since (null while
 * they succeed); `disabledReason` says why the delivery worker disabled it.
 */
@Entity({ tableName: 'webhook_endpoint' })
export class WebhookEndpoint extends TenantEntity {
  @Property({ type: 'text' })
  url!: string;

  @Property({ type: ArrayType, fieldName: 'event_types', columnType: 'text[]' })
  eventTypes: EventType[] = [];

  @Property({ type: 'boolean' })
  enabled: boolean = true;

  @Property({ type: 'text', nullable: true })
  description: string | null = null;

  @Property({ type: 'text', fieldName: 'secret_enc', lazy: true })
  secretEnc!: string;

  @Property({ type: 'timestamptz', fieldName: 'failing_since', nullable: true })
  failingSince: Date | null = null;

  @Property({ type: 'text', fieldName: 'disabled_reason', nullable: true })
  disabledReason: string | null = null;
}
