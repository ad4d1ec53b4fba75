import { Field, ObjectType } from 'type-graphql';
import { defineEnum } from '../../kernel/graphql-types';
import type { BookingChangeKind } from '../../kernel/live';
import type { BookingJson } from './booking.json';
import { BookingType } from './booking.types';

/** GraphQL types of the `bookingChanged` subscription. */

export const BookingChangeTypeEnum = defineEnum<BookingChangeKind>('BookingChangeType', 'What changed in a booking.', {
  created: 'The booking was made (in whatever status).',
  confirmed: 'Its status became confirmed.',
  moved: 'Its start, end or resource changed.',
  cancelled: 'Its status became cancelled.',
  updated: 'Anything else changed: another status (rejected, failed, finished, no_show), price, spots, metaData, ...',
});

@ObjectType('BookingChange', { description: 'A committed change of a booking, with the booking as it is when the event is sent.' })
export class BookingChangeType {
  @Field(() => BookingChangeTypeEnum, { description: 'What changed.' }) type!: BookingChangeKind;
  @Field(() => BookingType, { description: 'The booking now.' }) booking!: BookingJson;
  @Field(() => Date, { description: 'When the change was made.' }) occurredAt!: Date;
}
