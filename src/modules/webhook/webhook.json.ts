import type { EventType } from '../../kernel/events';
import { formatTimestamp } from '../../shared/time';
import type { WebhookEndpoint } from './webhook.entity';

/** REST JSON of webhook endpoints and deliveries; GraphQL resolvers return the same objects. */

export interface WebhookEndpointJson {
  id: string;
  companyID: string;
  url: string;
  eventTypes: EventType[];
  enabled: boolean;
  description: string | null;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The answer of a creation: the endpoint and its secret, shown this once. */
export interface CreatedWebhookEndpointJson extends WebhookEndpointJson {
  secret: string;
}

export function endpointJson(e: WebhookEndpoint): WebhookEndpointJson {
  return {
    id: e.id,
    companyID: e.companyId,
    url: e.url,
    eventTypes: [...e.eventTypes],
    enabled: e.enabled,
    description: e.description,
    disabledReason: e.disabledReason,
    createdAt: formatTimestamp(e.createdAt)!,
    updatedAt: formatTimestamp(e.updatedAt)!,
  };
}

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface AttemptJson {
  id: string;
  attempt: number;
  succeeded: boolean;
  responseStatus: number | null;
  latencyMs: number;
  responseExcerpt: string | null;
  error: string | null;
  createdAt: string;
}

export interface DeliveryJson {
  id: string;
  webhookID: string;
  eventID: string;
  eventType: EventType;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  createdAt: string;
  /** newest first */
  attempts: AttemptJson[];
}

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  type: EventType;
  status: DeliveryStatus;
  attempts: number;
  /** null while parked (the endpoint is disabled) */
  next_attempt_at: Date | string | null;
  last_attempt_at: Date | string | null;
  created_at: Date | string;
}

export interface AttemptRow {
  id: string;
  delivery_id: string;
  attempt: number;
  succeeded: boolean;
  response_status: number | null;
  latency_ms: number;
  response_excerpt: string | null;
  error: string | null;
  created_at: Date | string;
}

const ts = (v: Date | string | null): string | null => (v === null ? null : formatTimestamp(new Date(v)));

export function attemptJson(a: AttemptRow): AttemptJson {
  return {
    id: a.id,
    attempt: a.attempt,
    succeeded: a.succeeded,
    responseStatus: a.response_status,
    latencyMs: a.latency_ms,
    responseExcerpt: a.response_excerpt,
    error: a.error,
    createdAt: ts(a.created_at)!,
  };
}

export function deliveryJson(d: DeliveryRow, attempts: AttemptRow[]): DeliveryJson {
  return {
    id: d.id,
    webhookID: d.endpoint_id,
    eventID: d.event_id,
    eventType: d.type,
    status: d.status,
    attemptCount: d.attempts,
    // A delivery that is being attempted holds a lease in next_attempt_at: shown as pending all the same.
    nextAttemptAt: d.status === 'pending' ? ts(d.next_attempt_at) : null,
    lastAttemptAt: ts(d.last_attempt_at),
    createdAt: ts(d.created_at)!,
    attempts: attempts.map(attemptJson),
  };
}
