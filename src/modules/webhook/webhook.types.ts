import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { EVENT_TYPES, type EventType } from '../../kernel/events';
import { defineEnum, DOC, PART_OF_RECORD } from '../../kernel/graphql-types';
import { connectionType } from '../../kernel/connection';
import type { DeliveryStatus } from './webhook.json';

/**
 * GraphQL types of webhooks; field names are the REST JSON names and resolvers return the REST
 * objects. Event types are strings (`booking.created`): a GraphQL enum value cannot hold a dot.
 */

const EVENT_LIST = `One or more of: ${EVENT_TYPES.join(', ')}.`;

export const WebhookDeliveryStatusEnum = defineEnum<DeliveryStatus>('WebhookDeliveryStatus', 'Where a delivery stands.', {
  pending: 'Waiting for its next attempt (or being attempted).',
  succeeded: 'An attempt was answered with a 2xx status.',
  failed: 'Every attempt failed; given up.',
});

@ObjectType('WebhookEndpoint', { description: 'A URL the company receives signed events at.' })
export class WebhookEndpointType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => ID, { description: DOC.companyID }) companyID!: string;
  @Field({ description: 'Where events are posted: https to a public host (http to loopback hosts in development).' }) url!: string;
  @Field(() => [String], { description: `The event types posted. ${EVENT_LIST}` }) eventTypes!: EventType[];
  @Field({ description: 'A disabled endpoint gets no new events; its pending deliveries wait until it is enabled again.' })
  enabled!: boolean;
  @Field(() => String, { nullable: true, description: 'Free text.' }) description!: string | null;
  @Field(() => String, { nullable: true, description: 'Why deliveries disabled the endpoint; null otherwise.' })
  disabledReason!: string | null;
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

@ObjectType('CreatedWebhookEndpoint', { description: 'A new endpoint with its signing secret, shown only this once.' })
export class CreatedWebhookEndpointType extends WebhookEndpointType {
  @Field({ description: 'The Standard Webhooks signing secret (`whsec_` and base64).' }) secret!: string;
}

@ObjectType('WebhookSecret', { description: 'A new signing secret, shown only this once.' })
export class WebhookSecretType {
  @Field({ description: 'The Standard Webhooks signing secret (`whsec_` and base64).' }) secret!: string;
}

@ObjectType('WebhookAttempt', { description: 'One POST of a delivery to its endpoint.' })
export class WebhookAttemptType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => Int, { description: 'Which attempt of the delivery, from 1.' }) attempt!: number;
  @Field({ description: 'Answered with a 2xx status in time.' }) succeeded!: boolean;
  @Field(() => Int, { nullable: true, description: 'The HTTP status answered; null when none came (time-out, refused).' })
  responseStatus!: number | null;
  @Field(() => Int, { description: 'Milliseconds until the answer (or the failure).' }) latencyMs!: number;
  @Field(() => String, { nullable: true, description: 'The first kilobyte of the answer body.' }) responseExcerpt!: string | null;
  @Field(() => String, { nullable: true, description: 'Why the attempt failed.' }) error!: string | null;
  @Field(() => Date, { description: 'When the attempt was made.' }) createdAt!: string;
}

@ObjectType('WebhookDelivery', { description: 'One event sent to one endpoint, with its attempts.' })
export class WebhookDeliveryType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => ID, { description: 'The endpoint.' }) webhookID!: string;
  @Field(() => ID, { description: 'The event; sent as webhook-id, the same on every attempt and replay.' }) eventID!: string;
  @Field({ description: 'The event type.' }) eventType!: string;
  @Field(() => WebhookDeliveryStatusEnum, { description: 'Where the delivery stands.' }) status!: DeliveryStatus;
  @Field(() => Int, { description: 'Attempts made.' }) attemptCount!: number;
  @Field(() => Date, { nullable: true, description: 'When the next attempt is due (pending deliveries).' }) nextAttemptAt!: string | null;
  @Field(() => Date, { nullable: true, description: 'When the last attempt started.' }) lastAttemptAt!: string | null;
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => [WebhookAttemptType], { complexity: PART_OF_RECORD, description: 'The attempts, newest first (at most 11).' })
  attempts!: WebhookAttemptType[];
}

export const WebhookEndpointConnectionType = connectionType(
  'WebhookEndpoint',
  () => WebhookEndpointType,
  "The company's webhook endpoints, oldest first.",
  'webhooks',
);
export const WebhookDeliveryConnectionType = connectionType(
  'WebhookDelivery',
  () => WebhookDeliveryType,
  'The deliveries to an endpoint, newest first.',
  'deliveries',
);

@InputType('CreateWebhookEndpointInput', { description: 'A new webhook endpoint.' })
export class CreateWebhookEndpointInput {
  @Field({
    description:
      'https URL of a host that is and resolves to a public address (http to a loopback host only with WEBHOOK_ALLOW_INSECURE=true).',
  })
  url!: string;
  @Field(() => [String], { description: EVENT_LIST }) eventTypes!: string[];
  @Field(() => Boolean, { nullable: true, description: 'Default true.' }) enabled?: boolean | null;
  @Field(() => String, { nullable: true, description: 'Free text (at most 500 characters).' }) description?: string | null;
}

@InputType('UpdateWebhookEndpointInput', { description: 'Changes to a webhook endpoint; only the fields sent change.' })
export class UpdateWebhookEndpointInput {
  @Field(() => String, { nullable: true, description: 'A new URL (same rules as at creation).' }) url?: string | null;
  @Field(() => [String], { nullable: true, description: EVENT_LIST }) eventTypes?: string[] | null;
  @Field(() => Boolean, { nullable: true, description: 'Enabling clears disabledReason and resumes pending deliveries.' })
  enabled?: boolean | null;
  @Field(() => String, { nullable: true, description: 'Free text; null clears it.' }) description?: string | null;
}
