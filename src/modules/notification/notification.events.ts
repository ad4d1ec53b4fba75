/**
 * The e-mail events of the notifications contract, who gets them, and the variables their
 * templates may use. The database function notification_enqueue decides when each is written.
 */
export const NOTIFICATION_EVENTS = [
  'booking.confirmed',
  'booking.requested',
  'booking.moved',
  'booking.cancelled',
  'booking.reminder',
  'payment.receipt',
  'giftcard.purchased',
  'subscription.activated',
  'booking.created',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

export const isNotificationEvent = (v: unknown): v is NotificationEvent =>
  typeof v === 'string' && (NOTIFICATION_EVENTS as readonly string[]).includes(v);

export const MESSAGE_STATUSES = ['queued', 'sent', 'failed', 'not_sent', 'skipped'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** The languages with built-in templates for every event. */
export const DEFAULT_LANGUAGES = ['en', 'lv'] as const;

const COMMON = ['company.name', 'company.email', 'client.firstName', 'client.lastName', 'client.name', 'client.email'];
const BOOKING = [
  'booking.id',
  'booking.date',
  'booking.time',
  'booking.start',
  'booking.end',
  'booking.endTime',
  'booking.status',
  'booking.price',
  'booking.spots',
  'service.name',
  'resource.name',
];

/** The variables (dotted paths) a template of each event may use; anything else is refused when saved. */
export const EVENT_VARIABLES: Record<NotificationEvent, readonly string[]> = {
  'booking.confirmed': [...COMMON, ...BOOKING],
  'booking.requested': [...COMMON, ...BOOKING],
  'booking.moved': [...COMMON, ...BOOKING],
  'booking.cancelled': [...COMMON, ...BOOKING],
  'booking.reminder': [...COMMON, ...BOOKING],
  'booking.created': [...COMMON, ...BOOKING],
  'payment.receipt': [...COMMON, 'payment.id', 'payment.amount', 'payment.date', 'payment.description'],
  'giftcard.purchased': [...COMMON, 'giftcard.id', 'giftcard.amount', 'giftcard.code'],
  'subscription.activated': [...COMMON, 'subscription.id', 'subscription.name', 'subscription.validUntil'],
};

/** Who receives each event: the booking's (or payment's) client, the company's merchant address, or both. */
export const EVENT_RECIPIENTS: Record<NotificationEvent, readonly ('client' | 'merchant')[]> = {
  'booking.confirmed': ['client'],
  'booking.requested': ['client', 'merchant'],
  'booking.moved': ['client'],
  'booking.cancelled': ['client', 'merchant'],
  'booking.reminder': ['client'],
  'payment.receipt': ['client'],
  'giftcard.purchased': ['client'],
  'subscription.activated': ['client'],
  'booking.created': ['merchant'],
};
