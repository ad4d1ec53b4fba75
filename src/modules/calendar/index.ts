import type { AppModule } from '../../kernel/module';
import { CalendarFeed } from './calendar.entity';
import { CalendarFeedResolver } from './calendar.resolver';
import { calendarRoutes } from './calendar.routes';

/** Calendar feeds: secret iCalendar URLs of a resource's or a company's bookings, for calendar apps to subscribe to. */
export const calendarModule: AppModule = {
  name: 'calendar',
  description: 'iCalendar feeds of the bookings of a resource or a company.',
  entities: [CalendarFeed],
  resolvers: [CalendarFeedResolver],
  routes: calendarRoutes,
};
