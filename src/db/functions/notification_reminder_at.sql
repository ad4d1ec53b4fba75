-- When a booking's reminder is due: p_hours before p_start, whole days counted on the calendar
-- of the company's zone p_zone (a 24-hour reminder of a 10:00 booking comes at 10:00 the day
-- before, also across a daylight saving change), the remaining hours as elapsed time. A local
-- time that does not exist (spring forward) is read as PostgreSQL reads it: an hour later.
create or replace function notification_reminder_at(p_start timestamptz, p_hours integer, p_zone text)
returns timestamptz language sql immutable parallel safe as $fn$
  select ((p_start at time zone p_zone) - make_interval(days => p_hours / 24)) at time zone p_zone
    - make_interval(hours => p_hours % 24)
$fn$;
