import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { DOC } from '../../kernel/graphql-types';
import { connectionType } from '../../kernel/connection';
import { MESSAGE_STATUSES, NOTIFICATION_EVENTS } from './notification.events';

/**
 * GraphQL types of notifications; field names are the REST JSON names. Events are strings
 * (`booking.confirmed`): a GraphQL enum value cannot hold a dot. The REST `events` object
 * ({event: bool}) is a list of {event, enabled} here.
 */

const EVENTS = `One of: ${NOTIFICATION_EVENTS.join(', ')}.`;

@ObjectType('NotificationEventSetting', { description: 'Whether one event sends e-mail.' })
export class NotificationEventSettingType {
  @Field({ description: `The event. ${EVENTS}` }) event!: string;
  @Field({ description: 'false: the event sends nothing.' }) enabled!: boolean;
}

@InputType('NotificationEventSettingInput', { description: 'Switches one event on or off.' })
export class NotificationEventSettingInput {
  @Field({ description: `The event. ${EVENTS}` }) event!: string;
  @Field({ description: 'false: the event sends nothing.' }) enabled!: boolean;
}

@ObjectType('NotificationSettings', { description: "The company's e-mail notification settings." })
export class NotificationSettingsType {
  @Field({ description: 'false: no message is written for any event.' }) enabled!: boolean;
  @Field(() => [NotificationEventSettingType], { description: 'Every event and whether it sends e-mail.' })
  events!: NotificationEventSettingType[];
  @Field(() => String, {
    nullable: true,
    description: 'Where merchant messages go (booking.created, requests, cancellations); null: none.',
  })
  merchantEmail!: string | null;
  @Field(() => String, { nullable: true, description: 'The Reply-To of every message; null: none.' }) replyTo!: string | null;
  @Field({ description: "The sender's display name (default: the company's name)." }) senderName!: string;
  @Field(() => Int, { description: 'Hours before a booking its reminder is sent (1-168; whole days keep the local time).' })
  reminderHours!: number;
  @Field({ description: 'The language of messages to clients without one of their own (BCP 47).' }) language!: string;
}

@InputType('NotificationSettingsInput', { description: 'The settings to change; fields left out keep their values.' })
export class NotificationSettingsInput {
  @Field(() => Boolean, { nullable: true, description: 'false: no message is written for any event.' }) enabled?: boolean | null;
  @Field(() => [NotificationEventSettingInput], { nullable: true, description: 'Events to switch on or off.' })
  events?: NotificationEventSettingInput[] | null;
  @Field(() => String, { nullable: true, description: 'Where merchant messages go; null clears.' }) merchantEmail?: string | null;
  @Field(() => String, { nullable: true, description: 'The Reply-To of every message; null clears.' }) replyTo?: string | null;
  @Field(() => String, { nullable: true, description: "The sender's display name; null: the company's name." }) senderName?: string | null;
  @Field(() => Int, { nullable: true, description: 'Hours before a booking its reminder is sent (1-168).' }) reminderHours?: number | null;
  @Field(() => String, { nullable: true, description: 'The default language (BCP 47).' }) language?: string | null;
}

@ObjectType('NotificationTemplate', { description: 'The template of one event in one language.' })
export class NotificationTemplateType {
  @Field({ description: `The event. ${EVENTS}` }) event!: string;
  @Field({ description: 'The language (BCP 47).' }) language!: string;
  @Field({ description: 'The subject (Handlebars, plain text, one line).' }) subject!: string;
  @Field({ description: 'The plain text part (Handlebars).' }) text!: string;
  @Field({ description: 'The HTML part (Handlebars; values are escaped).' }) html!: string;
  @Field({ description: "true: the company's own template; false: the built-in one." }) custom!: boolean;
  @Field(() => Date, { nullable: true, description: 'When the company saved it; null for a built-in one.' }) updatedAt!: string | null;
}

@ObjectType('RenderedNotification', { description: 'A template rendered with sample data.' })
export class RenderedNotificationType {
  @Field({ description: 'The subject.' }) subject!: string;
  @Field({ description: 'The plain text part.' }) text!: string;
  @Field({ description: 'The HTML part.' }) html!: string;
}

@InputType('NotificationTemplateInput', { description: 'A template: Handlebars with the variables of its event.' })
export class NotificationTemplateInput {
  @Field(() => String, { nullable: true, description: 'The subject (required when saving).' }) subject?: string | null;
  @Field(() => String, { nullable: true, description: 'The plain text part (required when saving).' }) text?: string | null;
  @Field(() => String, { nullable: true, description: 'The HTML part (required when saving).' }) html?: string | null;
}

@ObjectType('NotificationMessage', { description: 'One e-mail message and where it stands.' })
export class NotificationMessageType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field({ description: `The event. ${EVENTS}` }) event!: string;
  @Field(() => String, { nullable: true, description: 'The recipient address.' }) to!: string | null;
  @Field(() => String, { nullable: true, description: 'The subject, once rendered.' }) subject!: string | null;
  @Field(() => String, { nullable: true, description: 'The language it was rendered in.' }) language!: string | null;
  @Field({ description: `One of: ${MESSAGE_STATUSES.join(', ')}.` }) status!: string;
  @Field(() => Int, { description: 'Attempts made.' }) attempts!: number;
  @Field(() => String, { nullable: true, description: 'Why the last attempt failed, or why it was not sent.' }) lastError!: string | null;
  @Field(() => ID, { nullable: true, description: 'The booking it is about.' }) bookingID!: string | null;
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { nullable: true, description: 'When it was sent.' }) sentAt!: string | null;
}

export const NotificationMessageConnectionType = connectionType(
  'NotificationMessage',
  () => NotificationMessageType,
  'Messages.',
  'messages',
);
