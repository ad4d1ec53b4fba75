import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import { DateTime } from 'luxon';

/**
 * iCalendar of bookings, shared by the calendar feeds (src/modules/calendar) and the e-mail
 * invitations (src/modules/notification), so that a booking's event has the same UID, times
 * and SEQUENCE in both.
 */

/** One booking as a calendar event. */
export interface FeedEvent {
  bookingId: string;
  /** cancelled: only in a CANCEL message */
  status: 'pending' | 'confirmed' | 'cancelled';
  startMs: number;
  /** null: a running booking without an end (shown as a point in time) */
  endMs: number | null;
  /** bumped on every move (time or resource): calendar apps replace an event only when it grows */
  sequence: number;
  createdMs: number;
  updatedMs: number;
  serviceName: string;
  resourceName: string;
  spots: number;
}

export interface FeedCalendar {
  name: string;
  /** the company's IANA zone */
  timeZone: string;
  /** the domain part of every UID (`<booking id>@<host>`): stable as long as the server's public URL is */
  host: string;
  events: FeedEvent[];
  /** an iTIP message (RFC 5546) rather than a published feed: METHOD, with its organizer and attendee */
  itip?: { method: 'REQUEST' | 'CANCEL'; organizer: { name: string; email: string }; attendee: { name: string; email: string } | null };
}

const vtimezones = new Map<string, string | null>();

/** The VTIMEZONE of a zone (from the tzurl.org definitions), cached; null when the zone has none. */
function vtimezone(zone: string): string | null {
  if (!vtimezones.has(zone)) vtimezones.set(zone, getVtimezoneComponent(zone));
  return vtimezones.get(zone) ?? null;
}

/**
 * The iCalendar text (RFC 5545) of a feed. Times are written in the company's zone with its
 * VTIMEZONE (so a calendar shows the local time the booking was made for, across DST
 * changes); a zone without a VTIMEZONE definition is written in UTC instead. Everything in
 * the text derives from the bookings (DTSTAMP is the booking's last change), so an unchanged
 * feed is byte-identical and its ETag stable.
 */
export function renderFeed(cal: FeedCalendar): string {
  const zone = vtimezone(cal.timeZone) ? cal.timeZone : null;
  const calendar = ical({
    name: cal.name,
    prodId: { company: 'booking-platform', product: 'calendar-feed', language: 'EN' },
    // The generator emits the VTIMEZONE of every zone the events use. No calendar-level name:
    // ical-generator would then write DTSTAMP and CREATED as local times, which RFC 5545 forbids.
    timezone: zone ? { name: null, generator: vtimezone } : null,
    ttl: 15 * 60,
  });
  if (zone) calendar.x('X-WR-TIMEZONE', zone);
  if (cal.itip) calendar.method(cal.itip.method === 'CANCEL' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST);
  const at = (ms: number) => (zone ? DateTime.fromMillis(ms, { zone }) : DateTime.fromMillis(ms, { zone: 'utc' }));
  for (const e of cal.events) {
    calendar.createEvent({
      id: `${e.bookingId}@${cal.host}`,
      sequence: e.sequence,
      start: at(e.startMs),
      end: e.endMs === null ? null : at(e.endMs),
      timezone: zone,
      summary: e.status === 'pending' ? `${e.serviceName} (pending)` : e.serviceName,
      description: `${e.resourceName}${e.spots > 1 ? `, ${e.spots} spots` : ''}\nBooking ${e.bookingId}`,
      location: e.resourceName,
      status:
        e.status === 'cancelled'
          ? ICalEventStatus.CANCELLED
          : e.status === 'pending'
            ? ICalEventStatus.TENTATIVE
            : ICalEventStatus.CONFIRMED,
      organizer: cal.itip ? cal.itip.organizer : undefined,
      attendees: cal.itip?.attendee
        ? [{ ...cal.itip.attendee, role: ICalAttendeeRole.REQ, status: ICalAttendeeStatus.ACCEPTED }]
        : undefined,
      stamp: DateTime.fromMillis(e.updatedMs, { zone: 'utc' }),
      created: DateTime.fromMillis(e.createdMs, { zone: 'utc' }),
      lastModified: DateTime.fromMillis(e.updatedMs, { zone: 'utc' }),
    });
  }
  return calendar.toString();
}
