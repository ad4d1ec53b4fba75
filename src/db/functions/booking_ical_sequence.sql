-- booking.ical_sequence is the iCalendar SEQUENCE of a booking: a calendar app replaces its
-- copy of an event only when the number grows. It grows whenever the booking's time or
-- resource changes, whichever code path (SQL or ORM) writes the row.
create or replace function booking_ical_sequence() returns trigger language plpgsql as $fn$
begin
  new.ical_sequence := old.ical_sequence + 1;
  return new;
end
$fn$;

create or replace trigger booking_ical_sequence before update of start_time, end_time, resource_id on booking
  for each row when (new.start_time is distinct from old.start_time or new.end_time is distinct from old.end_time
    or new.resource_id is distinct from old.resource_id)
  execute function booking_ical_sequence();
