import { Migration } from '@mikro-orm/migrations';

/**
 * The `stripe` provider: the company's Stripe secret key and webhook signing secret (stored
 * encrypted, like the redirect signing secret); per transaction the payment intent a paid
 * Checkout Session produced (refunds go to it), when the sweeper may next read a pending
 * transaction's session (after an inconclusive or failed read), and when an ended
 * transaction's session still has to be expired at Stripe; and the Stripe events applied per
 * company, so that each event changes things once however often it is delivered.
 */
export class Migration20261128000500StripePayments extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table payment_provider_settings add column secret_key_enc text, add column webhook_secret_enc text`);
    this.addSql(`alter table payment_transaction
      add column provider_payment_id text,
      add column provider_check_at timestamptz,
      add column checkout_close_at timestamptz`);
    // The sweeper's scan for sessions still to expire: only the few rows that have one.
    this.addSql(
      `create index payment_transaction_close_idx on payment_transaction (checkout_close_at) where checkout_close_at is not null`,
    );
    // A refund event names the refund by Stripe's id: found by index, not by scanning the company's refunds.
    this.addSql(`create index refund_provider_refund_idx on refund (company_id, provider_refund_id) where provider_refund_id is not null`);
    this.addSql(`create table stripe_event (
      company_id uuid not null references company(id) on delete cascade,
      event_id text not null check (length(event_id) <= 255),
      type text not null,
      transaction_id uuid,
      received_at timestamptz not null default now(),
      primary key (company_id, event_id)
    )`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists stripe_event');
    this.addSql('drop index if exists refund_provider_refund_idx');
    this.addSql('drop index if exists payment_transaction_close_idx');
    this.addSql(
      'alter table payment_transaction drop column if exists provider_payment_id, drop column if exists provider_check_at, drop column if exists checkout_close_at',
    );
    this.addSql('alter table payment_provider_settings drop column if exists secret_key_enc, drop column if exists webhook_secret_enc');
  }
}
