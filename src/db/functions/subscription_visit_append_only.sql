-- The visit ledger is append-only: a statement against subscription_visit itself may only
-- insert. Deletes cascading from a deleted contract or company run inside the foreign key's
-- trigger (depth > 1) and are let through.
create or replace function subscription_visit_append_only() returns trigger language plpgsql as $fn$
begin
  if tg_op = 'UPDATE' or pg_trigger_depth() <= 1 then
    raise exception 'subscription_visit is append-only' using errcode = 'P0001', constraint = 'subscription_visit_append_only';
  end if;
  return old;
end
$fn$;

create or replace trigger subscription_visit_append_only before update or delete on subscription_visit
  for each row execute function subscription_visit_append_only();
