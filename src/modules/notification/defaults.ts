import type { NotificationEvent } from './notification.events';
import type { TemplateParts } from './templates';

/**
 * The built-in templates, in English and Latvian, for every event. A company's own template for
 * an event and language replaces the built-in one. Each default is a subject and paragraphs; the
 * text part joins them with blank lines, the HTML part wraps them in a plain, inline-styled page.
 */

interface Draft {
  subject: string;
  /** paragraphs; a paragraph may hold template blocks */
  body: string[];
}

const WHEN_EN = '{{booking.date}}, {{booking.time}}{{#if booking.endTime}} – {{booking.endTime}}{{/if}}';
const WHAT_EN = `{{service.name}}{{#if resource.name}} with {{resource.name}}{{/if}}`;
const WHEN_LV = WHEN_EN;
const WHAT_LV = `{{service.name}}{{#if resource.name}} ({{resource.name}}){{/if}}`;
const HI_EN = 'Hello{{#if client.firstName}} {{client.firstName}}{{/if}},';
const HI_LV = 'Labdien{{#if client.firstName}}, {{client.firstName}}{{/if}}!';
const BYE_EN = 'Kind regards,\n{{company.name}}';
const BYE_LV = 'Ar cieņu,\n{{company.name}}';
const REF_EN = 'Booking reference: {{booking.id}}';
const REF_LV = 'Rezervācijas numurs: {{booking.id}}';
const CLIENT_EN = 'Client: {{client.name}}{{#if client.email}} <{{client.email}}>{{/if}}';
const CLIENT_LV = 'Klients: {{client.name}}{{#if client.email}} <{{client.email}}>{{/if}}';

const EN: Record<NotificationEvent, Draft> = {
  'booking.confirmed': {
    subject: 'Your booking is confirmed: {{service.name}}, {{booking.date}} {{booking.time}}',
    body: [
      HI_EN,
      `Your booking is confirmed.\n${WHAT_EN}\n${WHEN_EN}`,
      'The invitation is attached: open it to add the booking to your calendar.',
      REF_EN,
      BYE_EN,
    ],
  },
  'booking.requested': {
    subject: 'Booking request received: {{service.name}}, {{booking.date}} {{booking.time}}',
    body: [HI_EN, `We have received your booking request and will confirm it soon.\n${WHAT_EN}\n${WHEN_EN}`, CLIENT_EN, REF_EN, BYE_EN],
  },
  'booking.moved': {
    subject: 'Your booking has moved: {{service.name}}, {{booking.date}} {{booking.time}}',
    body: [
      HI_EN,
      `Your booking now takes place at a new time.\n${WHAT_EN}\n${WHEN_EN}`,
      'The attached invitation updates the event in your calendar.',
      REF_EN,
      BYE_EN,
    ],
  },
  'booking.cancelled': {
    subject: 'Booking cancelled: {{service.name}}, {{booking.date}} {{booking.time}}',
    body: [HI_EN, `This booking has been cancelled.\n${WHAT_EN}\n${WHEN_EN}`, CLIENT_EN, REF_EN, BYE_EN],
  },
  'booking.reminder': {
    subject: 'Reminder: {{service.name}}, {{booking.date}} {{booking.time}}',
    body: [
      HI_EN,
      `A reminder of your booking.\n${WHAT_EN}\n${WHEN_EN}`,
      'If you cannot come, please let us know in advance.',
      REF_EN,
      BYE_EN,
    ],
  },
  'payment.receipt': {
    subject: 'Payment receipt from {{company.name}}: {{payment.amount}}',
    body: [
      HI_EN,
      'Thank you for your payment of {{payment.amount}} on {{payment.date}}.{{#if payment.description}}\n{{payment.description}}{{/if}}',
      'The receipt is attached.',
      'Payment reference: {{payment.id}}',
      BYE_EN,
    ],
  },
  'giftcard.purchased': {
    subject: 'Your gift card from {{company.name}}',
    body: [
      HI_EN,
      'Thank you for buying a gift card worth {{giftcard.amount}}.{{#if giftcard.code}}\nIts code: {{giftcard.code}}{{/if}}',
      'The voucher is attached.',
      BYE_EN,
    ],
  },
  'subscription.activated': {
    subject: 'Your subscription is active: {{subscription.name}}',
    body: [
      HI_EN,
      'Your subscription {{subscription.name}} is now active{{#if subscription.validUntil}} until {{subscription.validUntil}}{{/if}}.',
      'The membership card is attached.',
      BYE_EN,
    ],
  },
  'booking.created': {
    subject: 'New booking: {{service.name}}, {{booking.date}} {{booking.time}}',
    body: [`A new booking ({{booking.status}}).\n${WHAT_EN}\n${WHEN_EN}`, CLIENT_EN, REF_EN],
  },
};

const LV: Record<NotificationEvent, Draft> = {
  'booking.confirmed': {
    subject: 'Jūsu rezervācija ir apstiprināta: {{service.name}}, {{booking.date}} {{booking.time}}',
    body: [
      HI_LV,
      `Jūsu rezervācija ir apstiprināta.\n${WHAT_LV}\n${WHEN_LV}`,
      'Pielikumā ir ielūgums: atveriet to, lai pievienotu rezervāciju savam kalendāram.',
      REF_LV,
      BYE_LV,
    ],
  },
  'booking.requested': {
    subject: 'Rezervācijas pieprasījums saņemts: {{service.name}}, {{booking.date}} {{booking.time}}',
    body: [
      HI_LV,
      `Esam saņēmuši jūsu rezervācijas pieprasījumu un drīzumā to apstiprināsim.\n${WHAT_LV}\n${WHEN_LV}`,
      CLIENT_LV,
      REF_LV,
      BYE_LV,
    ],
  },
  'booking.moved': {
    subject: 'Jūsu rezervācija ir pārcelta: {{service.name}}, {{booking.date}} {{booking.time}}',
    body: [
      HI_LV,
      `Jūsu rezervācija ir pārcelta uz jaunu laiku.\n${WHAT_LV}\n${WHEN_LV}`,
      'Pielikumā esošais ielūgums atjaunos notikumu jūsu kalendārā.',
      REF_LV,
      BYE_LV,
    ],
  },
  'booking.cancelled': {
    subject: 'Rezervācija atcelta: {{service.name}}, {{booking.date}} {{booking.time}}',
    body: [HI_LV, `Šī rezervācija ir atcelta.\n${WHAT_LV}\n${WHEN_LV}`, CLIENT_LV, REF_LV, BYE_LV],
  },
  'booking.reminder': {
    subject: 'Atgādinājums: {{service.name}}, {{booking.date}} {{booking.time}}',
    body: [
      HI_LV,
      `Atgādinām par jūsu rezervāciju.\n${WHAT_LV}\n${WHEN_LV}`,
      'Ja nevarat ierasties, lūdzu, laikus dodiet mums ziņu.',
      REF_LV,
      BYE_LV,
    ],
  },
  'payment.receipt': {
    subject: 'Maksājuma kvīts no {{company.name}}: {{payment.amount}}',
    body: [
      HI_LV,
      'Paldies par jūsu maksājumu {{payment.amount}} apmērā ({{payment.date}}).{{#if payment.description}}\n{{payment.description}}{{/if}}',
      'Kvīts ir pielikumā.',
      'Maksājuma numurs: {{payment.id}}',
      BYE_LV,
    ],
  },
  'giftcard.purchased': {
    subject: 'Jūsu dāvanu karte no {{company.name}}',
    body: [
      HI_LV,
      'Paldies, ka iegādājāties dāvanu karti {{giftcard.amount}} vērtībā.{{#if giftcard.code}}\nTās kods: {{giftcard.code}}{{/if}}',
      'Dāvanu kupons ir pielikumā.',
      BYE_LV,
    ],
  },
  'subscription.activated': {
    subject: 'Jūsu abonements ir aktīvs: {{subscription.name}}',
    body: [
      HI_LV,
      'Jūsu abonements {{subscription.name}} ir aktīvs{{#if subscription.validUntil}} līdz {{subscription.validUntil}}{{/if}}.',
      'Dalībnieka karte ir pielikumā.',
      BYE_LV,
    ],
  },
  'booking.created': {
    subject: 'Jauna rezervācija: {{service.name}}, {{booking.date}} {{booking.time}}',
    body: [`Jauna rezervācija ({{booking.status}}).\n${WHAT_LV}\n${WHEN_LV}`, CLIENT_LV, REF_LV],
  },
};

const html = (paragraphs: string[]): string =>
  '<!doctype html>\n<html><body style="font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #222;">\n' +
  paragraphs.map((p) => `<p>${p.split('\n').join('<br>\n')}</p>`).join('\n') +
  '\n</body></html>\n';

const build = (d: Draft): TemplateParts => ({ subject: d.subject, text: `${d.body.join('\n\n')}\n`, html: html(d.body) });

const BUILT_IN: Record<string, Record<NotificationEvent, TemplateParts>> = {
  en: Object.fromEntries(Object.entries(EN).map(([e, d]) => [e, build(d)])) as Record<NotificationEvent, TemplateParts>,
  lv: Object.fromEntries(Object.entries(LV).map(([e, d]) => [e, build(d)])) as Record<NotificationEvent, TemplateParts>,
};

/** The built-in template of an event in a language, or null when there is none in that language. */
export function defaultTemplate(event: NotificationEvent, language: string): TemplateParts | null {
  return BUILT_IN[language]?.[event] ?? null;
}
