-- The e-mail outbox's enqueue: turns the events of one company (the rows kernel/events.ts
-- eventRows writes, the ones webhook_enqueue reads; the record is the body's data) into notification_message rows, in the
-- caller's transaction: kernel/events.ts recordEvents calls it in the same statement as
-- webhook_enqueue, and booking_insert calls it, so a new booking's messages ride in its insert
-- statement. Always called with named arguments:
--
--   select notification_enqueue(p_company => ..., p_events => ..., p_at => ...)
--
-- The company's settings (no row: enabled, every event on, no merchant address, reminders 24
-- hours ahead) decide what is written. A message to a client is written only when the record
-- names a client (clientID; a gift card contract's JSON says clientId, a payment's may say userID); a client without a valid address, or a booking created with notify: false
-- (an event row with "quiet": true; the booking is then listed in notification_muted_booking),
-- gets a 'skipped' row. Ids that are not UUIDs are read as absent. Rendering and sending are the delivery worker's (src/modules/notification).
--
-- Reminders: a booking confirmed (created confirmed, or confirmed later) gets one queued
-- booking.reminder, due notification_reminder_at(start, reminder_hours, zone), unless that time
-- has already passed; a move changes when it is due (withdrawn when the new time has passed), a
-- cancellation, rejection or failure withdraws it ('skipped', with the reason).
create or replace function notification_enqueue(p_company uuid, p_events text, p_at timestamptz)
returns void language plpgsql volatile as $fn$
declare
  v_enabled boolean;
  v_events jsonb;
  v_merchant text;
  v_hours integer;
  v_zone text;
begin
  if p_events is null then
    return;
  end if;
  select s.enabled, s.events, s.merchant_email, s.reminder_hours into v_enabled, v_events, v_merchant, v_hours
    from notification_settings s where s.company_id = p_company;
  if not coalesce(v_enabled, true) then
    return;
  end if;
  v_events := coalesce(v_events, '{}');
  v_hours := coalesce(v_hours, 24);

  with ev as (
    select x.type, x.body->'data' as body, coalesce(x.quiet, false) as quiet, case when x.body->'data'->>'id' ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' then (x.body->'data'->>'id')::uuid end as record_id,
        case when x.type like 'booking.%' and x.body->'data'->>'id' ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' then (x.body->'data'->>'id')::uuid end as booking_id,
        case when coalesce(x.body->'data'->>'clientID', x.body->'data'->>'clientId', x.body->'data'->>'userID') ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' then (coalesce(x.body->'data'->>'clientID', x.body->'data'->>'clientId', x.body->'data'->>'userID'))::uuid end as client_id
      from jsonb_to_recordset(p_events::jsonb) as x(type text, body jsonb, quiet boolean)
  ), muted as (
    insert into notification_muted_booking (company_id, booking_id)
    select p_company, ev.booking_id from ev where ev.type = 'booking.created' and ev.quiet
    on conflict do nothing
  ), wanted as (
    select m.event, m.recipient, ev.* from ev cross join lateral (
      select 'booking.created' as event, 'merchant' as recipient where ev.type = 'booking.created'
      union all select 'booking.confirmed', 'client'
        where ev.type = 'booking.confirmed' or (ev.type = 'booking.created' and ev.body->>'status' = 'confirmed')
      union all select 'booking.requested', r.x from (values ('client'), ('merchant')) r(x)
        where ev.type = 'booking.created' and ev.body->>'status' = 'pending' and ev.body->>'bookingPolicy' = 'manual'
      union all select 'booking.cancelled', r.x from (values ('client'), ('merchant')) r(x) where ev.type = 'booking.cancelled'
      union all select 'booking.moved', 'client' where ev.type = 'booking.moved'
      union all select 'payment.receipt', 'client' where ev.type = 'payment.paid'
      union all select 'giftcard.purchased', 'client' where ev.type = 'giftcard.paid'
      union all select 'subscription.activated', 'client' where ev.type = 'subscription.activated'
    ) m
    where coalesce((v_events->>m.event)::boolean, true) and (m.recipient = 'client' or v_merchant is not null)
  ), addressed as (
    select w.*, c.email,
        w.quiet or (w.booking_id is not null and exists (
          select 1 from notification_muted_booking mb where mb.company_id = p_company and mb.booking_id = w.booking_id)) as muted
      from wanted w left join client c on c.company_id = p_company and c.id = w.client_id
      where w.recipient = 'merchant' or c.id is not null
  )
  insert into notification_message (id, company_id, event, recipient, to_address, client_id, booking_id, item_id, data,
      status, last_error, next_attempt_at, created_at, updated_at)
  select gen_random_uuid(), p_company, a.event, a.recipient,
      case when a.recipient = 'merchant' then v_merchant else a.email end,
      a.client_id, a.booking_id, case when a.booking_id is null then a.record_id end,
      case when a.booking_id is null then a.body end,
      case when a.recipient = 'client' and a.muted then 'skipped'
        when a.recipient = 'client' and not notification_address_ok(a.email) then 'skipped' else 'queued' end,
      case when a.recipient = 'client' and a.muted then 'the booking was made with notify: false'
        when a.recipient = 'client' and not notification_address_ok(a.email) then 'the client has no valid e-mail address' end,
      p_at, p_at, p_at
    from addressed a;

  -- reminders (only booking events reach them)
  if strpos(p_events, '"booking.') = 0 then
    return;
  end if;
  select c.time_zone into v_zone from company c where c.id = p_company;

  with ev as (
    select x.type, x.body->'data' as body, coalesce(x.quiet, false) as quiet, case when x.body->'data'->>'id' ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' then (x.body->'data'->>'id')::uuid end as booking_id,
        case when x.body->'data'->>'clientID' ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' then (x.body->'data'->>'clientID')::uuid end as client_id, (x.body->'data'->>'startTime')::timestamptz as start_time
      from jsonb_to_recordset(p_events::jsonb) as x(type text, body jsonb, quiet boolean)
      where x.type like 'booking.%'
  ), withdrawn as (
    update notification_message m set status = 'skipped', last_error = 'withdrawn: the booking was ' || substr(ev.type, 9),
        updated_at = p_at
      from ev where ev.type in ('booking.cancelled', 'booking.rejected', 'booking.failed')
        and m.company_id = p_company and m.booking_id = ev.booking_id and m.event = 'booking.reminder' and m.status = 'queued'
  ), moved as (
    update notification_message m set
        next_attempt_at = notification_reminder_at(ev.start_time, v_hours, v_zone),
        status = case when notification_reminder_at(ev.start_time, v_hours, v_zone) > p_at then 'queued' else 'skipped' end,
        last_error = case when notification_reminder_at(ev.start_time, v_hours, v_zone) > p_at then null
          else 'withdrawn: the booking moved inside the reminder window' end,
        updated_at = p_at
      from ev where ev.type = 'booking.moved'
        and m.company_id = p_company and m.booking_id = ev.booking_id and m.event = 'booking.reminder' and m.status = 'queued'
  )
  insert into notification_message (id, company_id, event, recipient, to_address, client_id, booking_id,
      status, next_attempt_at, created_at, updated_at)
  select gen_random_uuid(), p_company, 'booking.reminder', 'client', c.email, c.id, ev.booking_id,
      'queued', notification_reminder_at(ev.start_time, v_hours, v_zone), p_at, p_at
    from ev join client c on c.company_id = p_company and c.id = ev.client_id
    where (ev.type = 'booking.confirmed' or (ev.type = 'booking.created' and ev.body->>'status' = 'confirmed'))
      and coalesce((v_events->>'booking.reminder')::boolean, true)
      and not ev.quiet and notification_address_ok(c.email)
      and notification_reminder_at(ev.start_time, v_hours, v_zone) > p_at
      and not exists (select 1 from notification_muted_booking mb where mb.company_id = p_company and mb.booking_id = ev.booking_id)
      and not exists (select 1 from notification_message r where r.company_id = p_company and r.booking_id = ev.booking_id
        and r.event = 'booking.reminder' and r.status in ('queued', 'sent'));
end
$fn$;
