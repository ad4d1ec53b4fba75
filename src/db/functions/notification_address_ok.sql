-- Whether an e-mail address may be written to a message: one address (local part, @, a domain
-- with a dot), no spaces, control characters, angle brackets, commas or quotes (nothing that
-- could add a recipient or a header). The delivery worker checks it again before sending.
create or replace function notification_address_ok(p_address text)
returns boolean language sql immutable parallel safe as $fn$
  select coalesce(length(p_address) <= 254
    and p_address ~ '^[^\s@<>,;:"()\[\]\\[:cntrl:]]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$', false)
$fn$;
