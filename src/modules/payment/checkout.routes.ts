import type { FastifyInstance, FastifyReply } from 'fastify';
import formbody from '@fastify/formbody';
import { claimOperationId, commonErrors, registerScope, S, securityOf } from '../../kernel/rest';
import { completeTestCheckout, testCheckoutPage, type CheckoutAnswer } from './checkout.service';
import { CHECKOUT_OUTCOMES } from './payment.status';
import { PAGE_HEADERS } from './checkout.html';

const html = { type: 'string', description: 'text/html page' };

/** What a checkout completion or a provider's return answers: a 303 to the redirect URL, or the completion page. */
export const checkoutAnswers = {
  200: html,
  303: { type: 'null', description: 'See Other: Location is the signed redirect URL' },
  400: S.error,
  404: S.error,
  409: S.error,
  ...commonErrors,
};

export function sendCheckoutAnswer(reply: FastifyReply, answer: CheckoutAnswer): FastifyReply {
  if (answer.kind === 'redirect') return reply.code(303).header('location', answer.location).header('cache-control', 'no-store').send();
  return reply.code(200).headers(PAGE_HEADERS).send(answer.html);
}

/**
 * The test provider's hosted checkout. HTML pages and a 303 answer do not fit the JSON route
 * helper, so these two are registered directly (still with schemas, for the OpenAPI document).
 * Form bodies are accepted only in this scope: everywhere else the API stays JSON only.
 */
export function checkoutRoutes(app: FastifyInstance): void {
  registerScope(app, 'checkout form', async (scope) => {
    await scope.register(formbody);
    scope.route({
      method: 'GET',
      url: '/v1/payments/test-checkout/:transaction_id',
      config: { auth: 'none' },
      schema: {
        summary: 'Test provider checkout page (HTML)',
        operationId: claimOperationId(scope, 'testCheckoutPage', 'GET test checkout'),
        security: securityOf('none'),
        params: S.params('transaction_id'),
        response: { 200: html, 400: S.error, 404: S.error, ...commonErrors },
      },
      handler: async (req, reply) => {
        const page = await testCheckoutPage(req.ctx, (req.params as { transaction_id: string }).transaction_id);
        return reply.code(200).headers(PAGE_HEADERS).send(page);
      },
    });
    scope.route({
      method: 'POST',
      url: '/v1/payments/test-checkout/:transaction_id/complete',
      config: { auth: 'none' },
      schema: {
        summary: 'Complete a test payment (form or JSON outcome=success|failure|cancel); 303 to the redirect URL',
        operationId: claimOperationId(scope, 'completeTestPayment', 'POST test checkout'),
        security: securityOf('none'),
        params: S.params('transaction_id'),
        body: S.object({ outcome: { ...S.choice(CHECKOUT_OUTCOMES), description: 'How the test payment ends.' } }, ['outcome']),
        response: checkoutAnswers,
      },
      handler: async (req, reply) => {
        const answer = await completeTestCheckout(
          req.ctx,
          (req.params as { transaction_id: string }).transaction_id,
          req.body as { outcome?: unknown },
        );
        return sendCheckoutAnswer(reply, answer);
      },
    });
  });
}
