-- A change of a row of a catalog table (the tables a booking's check reads besides the
-- occupancy: kept_catalog_snapshot.sql and booking_kept_catalog.sql) gives its company a new
-- catalog version, at commit (a deferred constraint trigger), whoever makes the change.
-- Every table the kept catalog reads must be listed here (docs/design/architecture.md, Invariants;
-- test/availability/kept-catalog-invariants.int.test.ts); catalog_touch_all.sql covers `truncate`.
create or replace function catalog_touch() returns trigger language plpgsql as $fn$
begin
  if tg_op <> 'INSERT' then
    perform catalog_touch_company(old.company_id);
  end if;
  if tg_op <> 'DELETE' and (tg_op = 'INSERT' or new.company_id is distinct from old.company_id) then
    perform catalog_touch_company(new.company_id);
  end if;
  return null;
end
$fn$;

-- A constraint trigger cannot be created "or replace": it is dropped and created again.
drop trigger if exists catalog_touch on service;
create constraint trigger catalog_touch after insert or update or delete on service
  deferrable initially deferred for each row execute function catalog_touch();
drop trigger if exists catalog_touch on resource;
create constraint trigger catalog_touch after insert or update or delete on resource
  deferrable initially deferred for each row execute function catalog_touch();
drop trigger if exists catalog_touch on service_resource_link;
create constraint trigger catalog_touch after insert or update or delete on service_resource_link
  deferrable initially deferred for each row execute function catalog_touch();
drop trigger if exists catalog_touch on working_hours_rule;
create constraint trigger catalog_touch after insert or update or delete on working_hours_rule
  deferrable initially deferred for each row execute function catalog_touch();
drop trigger if exists catalog_touch on closing_period;
create constraint trigger catalog_touch after insert or update or delete on closing_period
  deferrable initially deferred for each row execute function catalog_touch();
drop trigger if exists catalog_touch on price_rule;
create constraint trigger catalog_touch after insert or update or delete on price_rule
  deferrable initially deferred for each row execute function catalog_touch();
drop trigger if exists catalog_touch on discount;
create constraint trigger catalog_touch after insert or update or delete on discount
  deferrable initially deferred for each row execute function catalog_touch();
drop trigger if exists catalog_touch on capacity_rule;
create constraint trigger catalog_touch after insert or update or delete on capacity_rule
  deferrable initially deferred for each row execute function catalog_touch();
drop trigger if exists catalog_touch on slot;
create constraint trigger catalog_touch after insert or update or delete on slot
  deferrable initially deferred for each row execute function catalog_touch();
drop trigger if exists catalog_touch on ticket;
create constraint trigger catalog_touch after insert or update or delete on ticket
  deferrable initially deferred for each row execute function catalog_touch();
