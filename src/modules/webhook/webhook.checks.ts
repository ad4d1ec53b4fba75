import { EVENT_TYPES, isEventType, type EventType } from '../../kernel/events';
import type { Check } from '../../shared/validate';
import { checkWebhookUrl } from './webhook-url';

/** Field validation of webhook endpoint input, shared by REST and GraphQL. */

export interface WebhookInput {
  url?: unknown;
  eventTypes?: unknown;
  enabled?: unknown;
  description?: unknown;
}

export interface WebhookFields {
  url?: string;
  eventTypes?: EventType[];
  enabled?: boolean;
  description?: string | null;
}

const MAX_DESCRIPTION = 500;

function eventTypes(c: Check, v: unknown, required: boolean): EventType[] | undefined {
  if (v === undefined || v === null) {
    if (required) c.fail('eventTypes', 'is required');
    return undefined;
  }
  if (!Array.isArray(v) || !v.length) return (c.fail('eventTypes', 'must be a non-empty array of event types'), undefined);
  const out: EventType[] = [];
  v.forEach((t, i) => {
    if (!isEventType(t)) c.fail(`eventTypes[${i}]`, `must be one of ${EVENT_TYPES.join(', ')}`);
    else if (!out.includes(t)) out.push(t);
  });
  return out;
}

/** The fields sent (all of url and eventTypes when creating); `allowInsecure` is WEBHOOK_ALLOW_INSECURE. */
export function readWebhookInput(c: Check, body: WebhookInput, creating: boolean, allowInsecure: boolean): WebhookFields {
  const out: WebhookFields = {};
  if (creating || body.url !== undefined) {
    const raw = c.string('url', body.url, { required: true, max: 4096 });
    if (raw !== undefined) {
      const checked = checkWebhookUrl(raw, allowInsecure);
      if (checked.ok) out.url = checked.url;
      else c.fail('url', checked.message);
    }
  }
  const types = eventTypes(c, body.eventTypes, creating || body.eventTypes !== undefined);
  if (types) out.eventTypes = types;
  if (body.enabled !== undefined) {
    const enabled = c.bool('enabled', body.enabled, !creating);
    if (enabled !== undefined) out.enabled = enabled;
  }
  if (body.description !== undefined) out.description = c.string('description', body.description, { max: MAX_DESCRIPTION }) || null;
  return out;
}
