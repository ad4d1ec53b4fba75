-- Opens the audit scope of the running transaction: who writes, for which request, at what time
-- (kernel/audit.ts `auditScopeArg` gives the argument), as transaction-local settings that the
-- audit log's trigger reads (audit_record.sql). Transaction-local (`set_config(..., true)`), so
-- they end with the transaction and never outlive it on a pooled connection. A null scope sets
-- nothing. Called once at the start of every ORM transaction, or in the FROM list of a single
-- statement that runs outside one (`select booking_insert(...) from audit_begin(?)`), which
-- then costs no round trip of its own.
create or replace function audit_begin(p_scope jsonb) returns void language plpgsql volatile as $fn$
begin
  if p_scope is null then
    return;
  end if;
  perform set_config('audit.actor_type', coalesce(p_scope ->> 'actorType', ''), true),
          set_config('audit.actor_id', coalesce(p_scope ->> 'actorId', ''), true),
          set_config('audit.actor_name', coalesce(p_scope ->> 'actorName', ''), true),
          set_config('audit.merchant_id', coalesce(p_scope ->> 'merchantId', ''), true),
          set_config('audit.request_id', coalesce(p_scope ->> 'requestId', ''), true),
          set_config('audit.at', coalesce(p_scope ->> 'at', ''), true);
end
$fn$;
