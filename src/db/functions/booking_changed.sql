-- Live updates (GraphQL subscriptions, src/app/graphql-ws.ts): every new or changed booking row,
-- written by whatever means (the booking services, payment settlement, an operator's SQL), is
-- announced on the `booking_changed` channel, and every API process passes it to its
-- subscribers of that company (src/kernel/live.ts). NOTIFY is transactional: it is delivered
-- when the writing transaction commits and never for one that rolls back (a booking refused by
-- the exclusion constraint announces nothing).
--
-- The payload: {"c": company, "b": booking, "t": what changed, "at": when, "x": transaction}.
-- `t`: created (a new row), cancelled or confirmed (the status became so), moved (start, end or
-- resource changed), updated (anything else). Rows a transaction writes several times are
-- announced once per kind; a process merges the announcements of one transaction per booking
-- (`x`), so a booking inserted and then completed in its own transaction is one `created`.
-- `at`: the row's updated_at when the change set it (the service's clock), else the time of the
-- transaction.
--
-- Only a company someone watches is announced (a row of live_watch, kept by the process that
-- holds the subscriptions, migration 20261129000100): a commit that notifies holds
-- PostgreSQL's notification lock until it is flushed, so notifying commits are serialised;
-- a company nobody watches pays one index probe. A change whose statement began before a
-- watch was registered is not announced.
create or replace function booking_changed() returns trigger language plpgsql as $fn$
declare
  v_type text;
begin
  if not exists (select 1 from live_watch w where w.company_id = new.company_id and w.kind = 'bookings' and w.expires_at > now()) then
    return null;
  end if;
  if tg_op = 'INSERT' then
    v_type := 'created';
  elsif new.status is distinct from old.status and new.status in ('cancelled', 'confirmed') then
    v_type := new.status;
  elsif new.start_time is distinct from old.start_time or new.end_time is distinct from old.end_time
      or new.resource_id is distinct from old.resource_id then
    v_type := 'moved';
  else
    v_type := 'updated';
  end if;
  perform pg_notify('booking_changed', json_build_object(
    'c', new.company_id, 'b', new.id, 't', v_type,
    'at', case when tg_op = 'INSERT' or new.updated_at is distinct from old.updated_at then new.updated_at else now() end,
    'x', pg_current_xact_id()::text)::text);
  return null;
end
$fn$;

create or replace trigger booking_changed after insert or update on booking
  for each row execute function booking_changed();
