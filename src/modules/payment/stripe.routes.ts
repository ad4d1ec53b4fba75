import type { FastifyInstance } from 'fastify';
import { claimOperationId, commonErrors, registerScope, S, securityOf } from '../../kernel/rest';
import { checkoutAnswers, sendCheckoutAnswer } from './checkout.routes';
import { handleStripeWebhook, RETURN_OUTCOMES, stripeReturn } from './stripe.service';

/** The raw body of a webhook, kept as bytes: Stripe signs exactly what it sent. */
const RAW = Symbol('raw body');
type RawBody = { [RAW]: Buffer };

/**
 * Stripe's side of the `stripe` provider: the customer's return from Checkout (a 303 to the
 * company's redirect) and the webhook. Registered directly (a redirect and a raw body do not
 * fit the JSON route helper), still with schemas for the OpenAPI document.
 */
export function stripeRoutes(app: FastifyInstance): void {
  app.route({
    method: 'GET',
    url: '/v1/payments/stripe/return/:transaction_id',
    config: { auth: 'none' },
    schema: {
      summary: 'Return from Stripe Checkout (outcome=success|cancel, session_id); 303 to the signed redirect URL',
      operationId: claimOperationId(app, 'stripeReturn', 'GET stripe return'),
      security: securityOf('none'),
      params: S.params('transaction_id'),
      querystring: S.object({
        outcome: { ...S.choice(RETURN_OUTCOMES), description: 'How the customer left Stripe Checkout.' },
        session_id: { ...S.str, description: 'The Checkout Session, as Stripe fills it in.' },
      }),
      response: checkoutAnswers,
    },
    handler: async (req, reply) => {
      const answer = await stripeReturn(req.ctx, (req.params as { transaction_id: string }).transaction_id, req.query as object);
      return sendCheckoutAnswer(reply, answer);
    },
  });

  registerScope(app, 'stripe events', async (scope) => {
    // Only this route reads its body as bytes, whatever its content type.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, { [RAW]: body as Buffer } satisfies RawBody));
    scope.route({
      method: 'POST',
      url: '/v1/payments/stripe/webhook/:cid',
      config: { auth: 'none' },
      schema: {
        summary: "Stripe webhook of a company (verified with the company's webhook_secret)",
        description:
          'Point a Stripe webhook endpoint here with the events checkout.session.completed, checkout.session.async_payment_succeeded, checkout.session.async_payment_failed, checkout.session.expired, charge.refunded and refund.updated. The body is read as sent; Stripe-Signature is verified (300 s tolerance). Each event id is applied once.',
        operationId: claimOperationId(scope, 'stripeWebhook', 'POST stripe webhook'),
        security: securityOf('none'),
        params: S.params('cid'),
        response: {
          200: S.out({ received: { ...S.bool, description: 'Always true: the event was taken.' } }),
          400: S.error,
          404: S.error,
          ...commonErrors,
        },
      },
      handler: async (req, reply) => {
        const body = req.body as RawBody | undefined;
        const signature = req.headers['stripe-signature'];
        const answer = await handleStripeWebhook(
          req.ctx,
          (req.params as { cid: string }).cid,
          body?.[RAW] ?? null,
          typeof signature === 'string' ? signature : undefined,
        );
        return reply.code(200).send(answer);
      },
    });
  });
}
