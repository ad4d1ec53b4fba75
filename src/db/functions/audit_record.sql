-- The audit log (docs/audit-log.md): every insert, update and delete of a row of a table that holds
-- merchant data writes one `audit_entry` row, in the transaction of the write, whoever makes it
-- (the ORM, SQL in the code, a database function, an operator's psql). A write that rolls back
-- takes its entry with it.
--
-- Who: the transaction-local settings `audit.actor_type`, `audit.actor_id`, `audit.actor_name`,
-- `audit.merchant_id`, `audit.request_id` and `audit.at` (the request's clock), set at the start
-- of the transaction by `audit_begin` (kernel/audit.ts). Transaction-local, so nothing is left
-- on a connection a pooler hands to someone else. A write made with none set (start-up, the
-- command line, migrations, SQL by hand) is recorded as the system, `database`.
--
-- What: `create` with every field's value, `delete` with every field's last value, `update`
-- with the changed fields before and after (`status` when the status is one of them; an update
-- that changes nothing but `updatedAt` is not recorded). Fields are named as the record's
-- entity names its properties: the column in camelCase, or the name the trigger's arguments
-- give it (`column:field`); an argument `-column` leaves a column out (counters the database
-- keeps, the codes that spend a gift card or a contract, copies of other records). Values
-- as audit_value.sql writes them; columns named like secrets (`secret`, `token`, `password`,
-- `key_hash`, `credential`, `private_key`, `signing`) are masked when they hold a value.
create or replace function audit_record() returns trigger language plpgsql as $fn$
declare
  v_old jsonb;
  v_new jsonb;
  v_row jsonb;
  v_left_out text[] := '{}';
  v_columns text[] := '{}';
  v_fields text[] := '{}';
  v_changes jsonb;
  v_action text := case tg_op when 'INSERT' then 'create' when 'DELETE' then 'delete' else 'update' end;
  v_record_id text;
  v_actor_type text := nullif(current_setting('audit.actor_type', true), '');
  i int;
begin
  if tg_op <> 'INSERT' then
    v_old := to_jsonb(old);
  end if;
  if tg_op <> 'DELETE' then
    v_new := to_jsonb(new);
  end if;
  v_row := coalesce(v_new, v_old);
  for i in 0 .. tg_nargs - 1 loop
    if left(tg_argv[i], 1) = '-' then
      v_left_out := v_left_out || substr(tg_argv[i], 2);
    else
      v_columns := v_columns || split_part(tg_argv[i], ':', 1);
      v_fields := v_fields || split_part(tg_argv[i], ':', 2);
    end if;
  end loop;

  -- one pass over the table's columns (for an update, only those that changed)
  select jsonb_object_agg(c.field, case
           when tg_op = 'INSERT' then jsonb_build_object('after', c.after)
           when tg_op = 'DELETE' then jsonb_build_object('before', c.before)
           else jsonb_build_object('before', c.before, 'after', c.after)
         end)
    into v_changes
    from (
      select case when strpos(f.col, '_') = 0 then coalesce(v_fields[array_position(v_columns, f.col)], f.col)
                  else coalesce(v_fields[array_position(v_columns, f.col)], lower(left(f.col, 1)) || substr(replace(initcap(f.col), '_', ''), 2))
             end as field,
             case when f.secret and jsonb_typeof(f.b) <> 'null' then '"[masked]"'::jsonb else audit_value(f.b, f.typ) end as before,
             case when f.secret and jsonb_typeof(f.a) <> 'null' then '"[masked]"'::jsonb else audit_value(f.a, f.typ) end as after
        from (
          select a.attname::text as col, a.atttypid as typ, v_old -> a.attname::text as b, v_new -> a.attname::text as a,
                 -- named like a secret (LIKE: a regular expression per column of every row costs more than the rest together)
                 lower(a.attname::text) like any (
                   '{%secret%,%token%,%password%,%passwd%,%key_hash%,%keyhash%,%credential%,%private_key%,%privatekey%,%signing%}'
                 ) as secret
            from pg_attribute a
           where a.attrelid = tg_relid and a.attnum > 0 and not a.attisdropped
             and a.attname <> 'updated_at' and a.attname::text <> all (v_left_out)
             and (tg_op <> 'UPDATE' or (v_old -> a.attname::text) is distinct from (v_new -> a.attname::text))
          -- a fence: each value is looked up once, not once per use in audit_value's inlined expression
          offset 0
        ) f
    ) c;

  if tg_op = 'UPDATE' then
    if v_changes is null then
      return null;
    end if;
    if v_changes ? 'status' then
      v_action := 'status';
    end if;
  end if;

  v_record_id := v_row ->> 'id';
  if v_record_id is null then
    select string_agg(v_row ->> a.attname::text, ':' order by array_position(x.indkey::int2[], a.attnum))
      into v_record_id
      from pg_index x join pg_attribute a on a.attrelid = x.indrelid and a.attnum = any (x.indkey)
     where x.indrelid = tg_relid and x.indisprimary;
  end if;

  insert into audit_entry (id, company_id, merchant_id, actor_type, actor_id, actor_name, action, record_type, record_id, changes,
                           request_id, created_at)
  values (
    gen_random_uuid(),
    case when tg_table_name = 'company' then v_row ->> 'id' else v_row ->> 'company_id' end::uuid,
    nullif(current_setting('audit.merchant_id', true), '')::uuid,
    coalesce(v_actor_type, 'system'),
    case when v_actor_type is null then 'database' else current_setting('audit.actor_id', true) end,
    case when v_actor_type is null then 'direct database write (' || current_user || ')'
         else nullif(current_setting('audit.actor_name', true), '') end,
    v_action,
    tg_table_name,
    v_record_id,
    coalesce(v_changes, '{}'),
    nullif(current_setting('audit.request_id', true), ''),
    coalesce(nullif(current_setting('audit.at', true), '')::timestamptz, now())
  );
  return null;
end
$fn$;

-- Every table that holds merchant data, and only those: test/audit/audit-completeness.int.test.ts
-- reads the tables from the catalog and fails on one that is neither here nor in its list of
-- tables that hold no records (the log itself, outboxes and queues, counters, rows that only
-- mirror a booking).
create or replace trigger audit_record after insert or update or delete on api_key
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on booking
  for each row execute function audit_record('-code', '-ical_sequence');
create or replace trigger audit_record after insert or update or delete on calendar_feed
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on capacity_rule
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on client
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on client_refresh_token
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on closing_period
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on company
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on discount
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on gift_card
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on gift_card_contract
  for each row execute function audit_record('-code');
create or replace trigger audit_record after insert or update or delete on gift_card_usage
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on merchant
  for each row execute function audit_record();
-- a message's data is a copy of the record it is about (a gift card's or contract's code
-- included); its attempts and the time it is next due are the delivery worker's bookkeeping
create or replace trigger audit_record after insert or update or delete on notification_message
  for each row execute function audit_record('-data', '-attempts', '-next_attempt_at');
create or replace trigger audit_record after insert or update or delete on notification_muted_booking
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on notification_settings
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on notification_template
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on payment_provider_settings
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on payment_settings
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on payment_transaction
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on pdf_file
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on pdf_template
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on price_rule
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on promo_code
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on promo_usage
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on refund
  for each row execute function audit_record('-seq');
create or replace trigger audit_record after insert or update or delete on resource
  for each row execute function audit_record('related_resource_ids:relatedResourceIDs');
create or replace trigger audit_record after insert or update or delete on service
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on service_resource_link
  for each row execute function audit_record('related_resource_ids:relatedResourceIDs');
create or replace trigger audit_record after insert or update or delete on slot
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on subscription
  for each row execute function audit_record('rrule:rRule');
create or replace trigger audit_record after insert or update or delete on subscription_capacity_rule
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on subscription_contract
  for each row execute function audit_record('-code');
create or replace trigger audit_record after insert or update or delete on subscription_price_rule
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on subscription_settings
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on subscription_usage
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on subscription_visit
  for each row execute function audit_record('-seq');
create or replace trigger audit_record after insert or update or delete on ticket
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on webhook_endpoint
  for each row execute function audit_record();
create or replace trigger audit_record after insert or update or delete on working_hours_rule
  for each row execute function audit_record();
