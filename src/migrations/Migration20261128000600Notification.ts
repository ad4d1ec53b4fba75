import { Migration } from '@mikro-orm/migrations';

/**
 * E-mail notifications: a company's settings (no row: the defaults), its own templates per
 * event and language, and the message outbox. A message row is written in the transaction of
 * the change that causes it (the `notification_enqueue` database function, called beside the
 * webhook enqueue); the delivery worker claims due rows with `for update skip locked` through
 * the partial index on queued messages. A booking reminder is a queued message due
 * `reminder_hours` before the booking's start; a move changes when it is due, a cancellation
 * withdraws it. `notification_muted_booking` lists the bookings created with `notify: false`.
 * The client's `language` (BCP 47, optional) chooses the language of its messages.
 */
export class Migration20261128000600Notification extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table notification_settings (
      id uuid primary key,
      company_id uuid not null unique references company(id) on delete cascade,
      enabled boolean not null default true,
      events jsonb not null default '{}',
      merchant_email text check (length(merchant_email) <= 254),
      reply_to text check (length(reply_to) <= 254),
      sender_name text check (length(sender_name) <= 100),
      reminder_hours integer not null default 24 check (reminder_hours between 1 and 168),
      language text not null default 'en' check (length(language) <= 35),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    this.addSql(`create table notification_template (
      id uuid primary key,
      company_id uuid not null references company(id) on delete cascade,
      event text not null,
      language text not null check (length(language) <= 35),
      subject text not null,
      text text not null,
      html text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (company_id, event, language)
    )`);
    this.addSql(`create table notification_message (
      id uuid primary key,
      company_id uuid not null references company(id) on delete cascade,
      event text not null,
      recipient text not null check (recipient in ('client', 'merchant')),
      to_address text,
      client_id uuid,
      booking_id uuid,
      item_id uuid,
      data jsonb,
      subject text,
      language text,
      status text not null check (status in ('queued', 'sent', 'failed', 'not_sent', 'skipped')),
      attempts integer not null default 0,
      last_error text,
      next_attempt_at timestamptz not null,
      resent_from uuid,
      created_at timestamptz not null,
      sent_at timestamptz,
      updated_at timestamptz not null,
      unique (company_id, id)
    )`);
    this.addSql(`create index notification_message_due_idx on notification_message (next_attempt_at) where status = 'queued'`);
    this.addSql(`create index notification_message_company_idx on notification_message (company_id, created_at desc, id desc)`);
    this.addSql(
      `create index notification_message_booking_idx on notification_message (company_id, booking_id) where booking_id is not null`,
    );
    // A booking's reminder is queued or sent once (a resend's copy aside): the database holds the
    // rule that notification_enqueue's "not exists" checks, whatever the order of two changes.
    this.addSql(
      `create unique index notification_message_reminder_once on notification_message (company_id, booking_id)
         where event = 'booking.reminder' and status in ('queued', 'sent') and resent_from is null`,
    );
    this.addSql(`create table notification_muted_booking (
      company_id uuid not null references company(id) on delete cascade,
      booking_id uuid not null,
      primary key (company_id, booking_id)
    )`);
    this.addSql(`alter table client add column language text check (length(language) <= 35)`);
  }
}
