import type { AppModule } from '../../kernel/module';
import { startWebhookWorker } from './delivery';
import { WebhookEndpoint } from './webhook.entity';
import { WebhookResolver } from './webhook.resolver';
import { webhookRoutes } from './webhook.routes';

/**
 * Webhooks: endpoints of a company, and the worker that delivers the events other modules
 * record in the outbox (kernel/events.ts), signed per Standard Webhooks.
 */
export const webhookModule: AppModule = {
  name: 'webhook',
  description: 'Webhook endpoints, signed event deliveries and their replay.',
  entities: [WebhookEndpoint],
  resolvers: [WebhookResolver],
  routes: webhookRoutes,
  start: (deps) => startWebhookWorker(deps),
};
