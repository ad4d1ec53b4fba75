-- The event outbox's enqueue, the one definition of it: records events of one company, each as
-- a webhook_event row with one webhook_delivery per enabled endpoint of the company that listens
-- to its type, decided in the same statement as the inserts; an event no endpoint wants is not
-- written at all. Called by kernel/events.ts (recordEvents) and by booking_insert (a new
-- booking's event rides in its insert statement), always with named arguments:
--
--   select webhook_enqueue(p_company => ..., p_events => ..., p_at => ...)
--
-- p_events: the events as a JSON array of {id, type, body} (kernel/events.ts eventRows), as text
-- so that it is parsed only when the company has an enabled endpoint: a company without
-- endpoints pays one index probe. p_at: the time of the change (occurred_at, and the
-- deliveries' first attempt and creation). Returns nothing; runs in the caller's transaction.
create or replace function webhook_enqueue(p_company uuid, p_events text, p_at timestamptz)
returns void language plpgsql volatile as $fn$
begin
  -- the events' JSON (about a kilobyte each) is read only when an endpoint may want them
  if p_events is null or not exists (select 1 from webhook_endpoint e where e.company_id = p_company and e.enabled) then
    return;
  end if;
  with wh_in as (
    select * from jsonb_to_recordset(p_events::jsonb) as x(id uuid, type text, body jsonb)
  ), wh_ep as (
    select e.id as endpoint_id, i.id as event_id from wh_in i
      join webhook_endpoint e on e.company_id = p_company and e.enabled and i.type = any(e.event_types)
  ), wh_ev as (
    insert into webhook_event (id, company_id, type, payload, occurred_at)
    select i.id, p_company, i.type, i.body, p_at from wh_in i where i.id in (select event_id from wh_ep)
    returning id
  )
  insert into webhook_delivery (id, company_id, endpoint_id, event_id, next_attempt_at, created_at, updated_at)
  select gen_random_uuid(), p_company, p.endpoint_id, p.event_id, p_at, p_at, p_at
    from wh_ep p join wh_ev v on v.id = p.event_id;
end
$fn$;
