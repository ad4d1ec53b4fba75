import type { AppModule } from '../../kernel/module';
import { startNotificationWorker } from './delivery';
import { NotificationSettings, NotificationTemplate } from './notification.entity';
import { NotificationResolver } from './notification.resolver';
import { notificationRoutes } from './notification.routes';

/**
 * E-mail notifications: settings, templates and the message log of a company, and the worker
 * that renders and sends the messages the outbox wrote (src/db/functions/notification_enqueue.sql)
 * through SMTP (nodemailer).
 */
export const notificationModule: AppModule = {
  name: 'notification',
  description: 'E-mail notifications: settings per event, templates per language, and the messages sent.',
  entities: [NotificationSettings, NotificationTemplate],
  resolvers: [NotificationResolver],
  routes: notificationRoutes,
  start: (deps) => startNotificationWorker(deps),
};
