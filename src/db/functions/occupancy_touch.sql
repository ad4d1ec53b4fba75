-- A change of a row of the occupancy (booking_occupancy, slot_usage) gives its resource a new
-- occupancy version, at commit (a deferred constraint trigger), whoever makes the change: a
-- booking, a hold, a cancellation, a move, a deletion that cascades, or SQL written by hand.
-- A process that keeps a resource's occupancy for availability answers
-- (src/modules/availability/kept-availability.ts) reads it again when the resource's version is
-- no longer the one it read with it (availability_kept.sql). Readers see the new version and the
-- new rows together, or neither.
--
-- Versions come from a sequence, never reused, so a version once seen means that occupancy
-- only; the first change in a transaction takes one, the others in the same transaction leave
-- it (touched_by). Taking the version row's lock at commit, after every other lock the
-- transaction holds, keeps the time it is held short. A row is never deleted: a resource
-- without one has had no occupancy since the table was made (its migration gave every resource
-- with some a version). occupancy_touch_all.sql covers `truncate`.
create or replace function occupancy_touch() returns trigger language plpgsql as $fn$
begin
  if tg_op <> 'INSERT' then
    insert into occupancy_version as v (company_id, resource_id, version, touched_by)
    values (old.company_id, old.resource_id, nextval('occupancy_version_seq'), pg_current_xact_id())
    on conflict (company_id, resource_id) do update set version = excluded.version, touched_by = excluded.touched_by
      where v.touched_by is distinct from excluded.touched_by;
  end if;
  if tg_op = 'INSERT' or (tg_op = 'UPDATE' and (new.company_id, new.resource_id) is distinct from (old.company_id, old.resource_id)) then
    insert into occupancy_version as v (company_id, resource_id, version, touched_by)
    values (new.company_id, new.resource_id, nextval('occupancy_version_seq'), pg_current_xact_id())
    on conflict (company_id, resource_id) do update set version = excluded.version, touched_by = excluded.touched_by
      where v.touched_by is distinct from excluded.touched_by;
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
