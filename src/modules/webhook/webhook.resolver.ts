import { Arg, Args, Ctx as GqlCtx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../kernel/context';
import { DOC, PageArgs } from '../../kernel/graphql-types';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  replayDelivery,
  rotateWebhookSecret,
  updateWebhook,
} from './webhook.service';
import {
  CreatedWebhookEndpointType,
  CreateWebhookEndpointInput,
  UpdateWebhookEndpointInput,
  WebhookDeliveryPageType,
  WebhookDeliveryType,
  WebhookEndpointPageType,
  WebhookEndpointType,
  WebhookSecretType,
} from './webhook.types';

const WEBHOOK = 'The webhook endpoint.';
const WRITE_ERRORS = 'errors: invalid_request, not_found, forbidden.';

/** `undefined` for a GraphQL null, so that an update leaves the field as it is (description: null clears). */
const sent = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

@Resolver(() => WebhookEndpointType)
export class WebhookResolver {
  @Query(() => WebhookEndpointPageType, { nullable: true, description: "A page of the company's webhook endpoints (webhooks.read)." })
  async webhooks(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Args(() => PageArgs) page: PageArgs,
  ) {
    const { items, ...rest } = await listWebhooks(ctx, companyID, page);
    return { ...rest, webhooks: items };
  }

  @Query(() => WebhookEndpointType, { nullable: true, description: 'One webhook endpoint (webhooks.read); its secret is never shown.' })
  webhook(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('id', () => ID, { description: WEBHOOK }) id: string,
  ) {
    return getWebhook(ctx, companyID, id);
  }

  @Query(() => WebhookDeliveryPageType, {
    nullable: true,
    description: 'A page of the deliveries to an endpoint, newest first, each with its attempts (webhooks.read).',
  })
  async webhookDeliveries(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('webhookID', () => ID, { description: WEBHOOK }) webhookID: string,
    @Args(() => PageArgs) page: PageArgs,
  ) {
    const { items, ...rest } = await listDeliveries(ctx, companyID, webhookID, page);
    return { ...rest, deliveries: items };
  }

  @Mutation(() => CreatedWebhookEndpointType, {
    description: `Registers a webhook endpoint (webhooks.write); the answer holds its signing secret, shown only here. ${WRITE_ERRORS}`,
  })
  createWebhookEndpoint(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('input', () => CreateWebhookEndpointInput, { description: DOC.inputArg }) input: CreateWebhookEndpointInput,
  ) {
    return createWebhook(ctx, companyID, input);
  }

  @Mutation(() => WebhookEndpointType, { description: `Changes a webhook endpoint (webhooks.write). ${WRITE_ERRORS}` })
  updateWebhookEndpoint(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('id', () => ID, { description: WEBHOOK }) id: string,
    @Arg('input', () => UpdateWebhookEndpointInput, { description: 'The changes.' }) input: UpdateWebhookEndpointInput,
  ) {
    return updateWebhook(ctx, companyID, id, {
      url: sent(input.url),
      eventTypes: sent(input.eventTypes),
      enabled: sent(input.enabled),
      description: input.description,
    });
  }

  @Mutation(() => Boolean, { description: `Deletes a webhook endpoint with its deliveries (webhooks.write). ${WRITE_ERRORS}` })
  async deleteWebhookEndpoint(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('id', () => ID, { description: WEBHOOK }) id: string,
  ) {
    await deleteWebhook(ctx, companyID, id);
    return true;
  }

  @Mutation(() => WebhookSecretType, {
    description: `Replaces the signing secret of an endpoint (webhooks.write); the new one is shown only here. ${WRITE_ERRORS}`,
  })
  rotateWebhookSecret(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('id', () => ID, { description: WEBHOOK }) id: string,
  ) {
    return rotateWebhookSecret(ctx, companyID, id);
  }

  @Mutation(() => WebhookDeliveryType, {
    description: `Sends a delivery's event to its endpoint again, as a new delivery due now (webhooks.write). ${WRITE_ERRORS}`,
  })
  replayWebhookDelivery(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('webhookID', () => ID, { description: WEBHOOK }) webhookID: string,
    @Arg('deliveryID', () => ID, { description: 'The delivery to send again.' }) deliveryID: string,
  ) {
    return replayDelivery(ctx, companyID, webhookID, deliveryID);
  }
}
