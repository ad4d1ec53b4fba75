-- A change of a row of the occupancy (booking_occupancy, slot_usage) gives its resource new
-- occupancy versions for the weeks the row reaches (occupancy_touch_range.sql), at commit (a
-- deferred constraint trigger), whoever makes the change: a booking, a hold, a cancellation, a
-- move, a deletion that cascades, or SQL written by hand. A process that keeps a resource's
-- occupancy for availability answers (src/modules/availability/kept-availability.ts) reads it
-- again when the versions it read with it have changed (availability_kept.sql). Readers see the
-- new versions and the new rows together, or neither.
--
-- Versions come from a sequence, never reused, and a row is never deleted: a week without one
-- has had no occupancy since the table was made (its migration gave every week with some a
-- version). Taking the version rows' locks at commit, after every other lock the transaction
-- holds, keeps the time they are held short; bookings of one resource in different weeks take
-- different rows. occupancy_touch_all.sql covers `truncate`.
create or replace function occupancy_touch() returns trigger language plpgsql as $fn$
begin
  if tg_table_name = 'slot_usage' then
    if tg_op <> 'INSERT' then
      perform occupancy_touch_range(old.company_id, old.resource_id, old.start_time, old.start_time);
    end if;
    if tg_op <> 'DELETE' then
      perform occupancy_touch_range(new.company_id, new.resource_id, new.start_time, new.start_time);
    end if;
  else
    if tg_op <> 'INSERT' then
      perform occupancy_touch_range(old.company_id, old.resource_id, lower(old.during), upper(old.during));
    end if;
    if tg_op <> 'DELETE' then
      perform occupancy_touch_range(new.company_id, new.resource_id, lower(new.during), upper(new.during));
    end if;
  end if;
  return null;
end
$fn$;

-- A constraint trigger cannot be created "or replace": it is dropped and created again.
drop trigger if exists occupancy_touch on booking_occupancy;
create constraint trigger occupancy_touch after insert or update or delete on booking_occupancy
  deferrable initially deferred for each row execute function occupancy_touch();
drop trigger if exists occupancy_touch on slot_usage;
create constraint trigger occupancy_touch after insert or update or delete on slot_usage
  deferrable initially deferred for each row execute function occupancy_touch();
