import { Arg, Args, Ctx as GqlCtx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../kernel/context';
import { DOC } from '../../kernel/graphql-types';
import { ConnectionArgs } from '../../kernel/connection';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  deliveriesConnection,
  webhooksConnection,
  replayDelivery,
  rotateWebhookSecret,
  updateWebhook,
} from './webhook.service';
import {
  CreatedWebhookEndpointType,
  CreateWebhookEndpointInput,
  UpdateWebhookEndpointInput,
  WebhookDeliveryConnectionType,
  WebhookDeliveryType,
  WebhookEndpointConnectionType,
  WebhookEndpointType,
  WebhookSecretType,
} from './webhook.types';

const WEBHOOK = 'The webhook endpoint.';
const WRITE_ERRORS = 'errors: invalid_request, not_found, forbidden.';

/** `undefined` for a GraphQL null, so that an update leaves the field as it is (description: null clears). */
const sent = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

@Resolver(() => WebhookEndpointType)
export class WebhookResolver {
  @Query(() => WebhookEndpointConnectionType, {
    nullable: true,
    description: "The company's webhook endpoints, oldest first (webhooks.read).",
  })
  async webhooks(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    return webhooksConnection(ctx, companyID, page);
  }

  @Query(() => WebhookEndpointType, { nullable: true, description: 'One webhook endpoint (webhooks.read); its secret is never shown.' })
  webhook(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('id', () => ID, { description: WEBHOOK }) id: string,
  ) {
    return getWebhook(ctx, companyID, id);
  }

  @Query(() => WebhookDeliveryConnectionType, {
    nullable: true,
    description: 'The deliveries to an endpoint, newest first, each with its attempts (webhooks.read).',
  })
  async webhookDeliveries(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('webhookID', () => ID, { description: WEBHOOK }) webhookID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    return deliveriesConnection(ctx, companyID, webhookID, page);
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
