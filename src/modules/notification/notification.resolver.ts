import { Arg, Args, ArgsType, Ctx as GqlCtx, Field, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../kernel/context';
import { DOC } from '../../kernel/graphql-types';
import { ConnectionArgs } from '../../kernel/connection';
import {
  deleteNotificationTemplate,
  getNotificationSettings,
  notificationMessagesConnection,
  listNotificationTemplates,
  previewNotificationTemplate,
  resendNotificationMessage,
  setNotificationTemplate,
  updateNotificationSettings,
  type SettingsJson,
} from './notification.service';
import {
  NotificationMessageConnectionType,
  NotificationMessageType,
  NotificationSettingsInput,
  NotificationSettingsType,
  NotificationTemplateInput,
  NotificationTemplateType,
  RenderedNotificationType,
} from './notification.types';

@ArgsType()
class MessageArgs extends ConnectionArgs {
  @Field(() => String, { nullable: true, description: 'Only messages of this status.' }) status?: string | null;
  @Field(() => String, { nullable: true, description: 'Only messages of this event.' }) event?: string | null;
  @Field(() => ID, { nullable: true, description: 'Only messages about this booking.' }) bookingID?: string | null;
}

const settingsOut = (s: SettingsJson) => ({ ...s, events: Object.entries(s.events).map(([event, enabled]) => ({ event, enabled })) });
const EVENT = 'The event (booking.confirmed, ...).';
const LANGUAGE = 'The language (BCP 47: en, lv).';

/** Strips GraphQL nulls of fields left out, keeping the explicit null of the clearable ones. */
function settingsIn(input: NotificationSettingsInput): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined) continue;
    if (v === null && !['merchantEmail', 'replyTo', 'senderName'].includes(k)) continue;
    out[k] = k === 'events' ? Object.fromEntries((v as { event: string; enabled: boolean }[]).map((e) => [e.event, e.enabled])) : v;
  }
  return out;
}

const partsIn = (input: NotificationTemplateInput) =>
  Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined && v !== null));

@Resolver()
export class NotificationResolver {
  @Query(() => NotificationSettingsType, {
    nullable: true,
    description: "The company's e-mail notification settings (notifications.read).",
  })
  async notificationSettings(@GqlCtx() ctx: Ctx, @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string) {
    return settingsOut(await getNotificationSettings(ctx, companyID));
  }

  @Query(() => [NotificationTemplateType], { nullable: true, description: "The company's own templates (notifications.read)." })
  notificationTemplates(@GqlCtx() ctx: Ctx, @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string) {
    return listNotificationTemplates(ctx, companyID);
  }

  @Query(() => NotificationMessageConnectionType, {
    nullable: true,
    description: "The company's messages, newest first (notifications.read).",
  })
  async notificationMessages(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Args(() => MessageArgs) args: MessageArgs,
  ) {
    const { status, event, bookingID, ...page } = args;
    return notificationMessagesConnection(ctx, companyID, { status, event, bookingID }, page);
  }

  @Mutation(() => NotificationSettingsType, {
    description: 'Changes the notification settings (notifications.write); errors: invalid_request, forbidden.',
  })
  async updateNotificationSettings(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('input', () => NotificationSettingsInput, { description: 'The settings to change.' }) input: NotificationSettingsInput,
  ) {
    return settingsOut(await updateNotificationSettings(ctx, companyID, settingsIn(input)));
  }

  @Mutation(() => NotificationTemplateType, {
    description:
      "Saves the company's template of an event and language (notifications.write); a template error is invalid_request with its position.",
  })
  setNotificationTemplate(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('event', { description: EVENT }) event: string,
    @Arg('language', { description: LANGUAGE }) language: string,
    @Arg('input', () => NotificationTemplateInput, { description: 'The template: subject, text and html.' })
    input: NotificationTemplateInput,
  ) {
    return setNotificationTemplate(ctx, companyID, event, language, partsIn(input));
  }

  @Mutation(() => Boolean, {
    description: "Deletes the company's template of an event and language (notifications.write); the built-in one applies again.",
  })
  async deleteNotificationTemplate(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('event', { description: EVENT }) event: string,
    @Arg('language', { description: LANGUAGE }) language: string,
  ) {
    await deleteNotificationTemplate(ctx, companyID, event, language);
    return true;
  }

  @Mutation(() => RenderedNotificationType, {
    description: 'Renders a template with sample data without saving or sending (notifications.read).',
  })
  previewNotificationTemplate(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('event', { description: EVENT }) event: string,
    @Arg('language', { description: LANGUAGE }) language: string,
    @Arg('input', () => NotificationTemplateInput, { nullable: true, description: 'Parts to render instead of the template in use.' })
    input: NotificationTemplateInput | null,
  ) {
    return previewNotificationTemplate(ctx, companyID, event, language, partsIn(input ?? {}));
  }

  @Mutation(() => NotificationMessageType, {
    description: 'Queues a copy of a message (notifications.write); errors: not_found, conflict (no valid address).',
  })
  resendNotification(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('id', () => ID, { description: 'The message.' }) id: string,
  ) {
    return resendNotificationMessage(ctx, companyID, id);
  }
}
