import { Field, ObjectType } from 'type-graphql';

@ObjectType('CalendarFeed', { description: 'A secret iCalendar feed URL; shown once, whoever holds it reads the feed.' })
export class CalendarFeedType {
  @Field({ description: 'The feed URL (text/calendar); calendar apps subscribe to it.' }) url!: string;
}
