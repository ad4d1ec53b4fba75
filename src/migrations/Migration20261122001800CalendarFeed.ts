import { Migration } from '@mikro-orm/migrations';

/**
 * Calendar feeds: a secret URL per resource (or per company, `resource_id` null) listing its
 * bookings as iCalendar. Only a SHA-256 hash of the URL's token is stored; one feed per
 * scope (issuing a new URL replaces the old one).
 *
 * `booking.ical_sequence` is the iCalendar SEQUENCE of a booking: a calendar app replaces
 * its copy of an event only when the number grows. A trigger bumps it whenever the booking's
 * time or resource changes, whichever code path (SQL or ORM) writes the row
 * (src/db/functions/booking_ical_sequence.sql).
 */
export class Migration20261122001800CalendarFeed extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table calendar_feed (
      id uuid primary key,
      company_id uuid not null references company(id) on delete cascade,
      resource_id uuid,
      token_hash text not null unique,
      created_at timestamptz not null,
      unique (company_id, id)
    )`);
    this.addSql(
      `create unique index calendar_feed_scope_idx on calendar_feed (company_id, coalesce(resource_id, '00000000-0000-0000-0000-000000000000'::uuid))`,
    );
    this.addSql(`alter table booking add column ical_sequence integer not null default 0`);
    // bumped by a trigger: src/db/functions/booking_ical_sequence.sql
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists booking_ical_sequence on booking');
    this.addSql('drop function if exists booking_ical_sequence()');
    this.addSql('alter table booking drop column if exists ical_sequence');
    this.addSql('drop table if exists calendar_feed');
  }
}
