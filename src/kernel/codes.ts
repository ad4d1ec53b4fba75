import type { DomainError } from '../shared/errors';

/**
 * The contract between the booking context and the modules whose codes a booking request may
 * carry (promo codes, gift cards, subscription contracts). Booking knows codes only
 * through these handlers, which the owning modules register on their module definition, so
 * booking imports none of them.
 *
 * A code is looked up as a promo code of the company, then a gift card contract code, then a
 * subscription contract code (REST contract, "Codes"): the handlers run in that order, and a
 * namespace the contract does not name runs after them, in registration order.
 */

/** The contract's lookup order, by `pluginNameSpace`. */
export const CODE_LOOKUP_ORDER: readonly string[] = ['promocodes', 'giftcards', 'subscription'];

/** The booking a code is checked against or applied to. */
export interface CodeTarget {
  companyId: string;
  /** the booking's id; usages point at it (their `reservationID`) */
  bookingId: string;
  /** the booking's client; null when not known yet (a guest before the booking's transaction) */
  clientId: string | null;
  serviceId: string;
  resourceId: string;
  /** start of the booking, epoch milliseconds */
  start: number;
  /** end of the booking (exclusive), epoch milliseconds */
  end: number;
  /** the booked spots (a ticket booking: the sum of its tickets) */
  spots: number;
  /** ticket id -> booked count, for ticket bookings; null otherwise */
  tickets: Readonly<Record<string, number>> | null;
  /** the company's IANA time zone, in which days of the week and times of day are read */
  timeZone: string;
  /** the booking's price after the codes applied before this one (smallest currency unit) */
  price: number;
  /** what is still to be paid after the codes applied before this one */
  due: number;
  currency: string | null;
}

/** What a code does to a booking. */
export interface CodeEffect {
  /** lowers the booking's price (a promo code's discount) */
  discount: number;
  /** pays this much of what is due, leaving the price as it is (a gift card's balance) */
  covered: number;
  /** what the owning plugin reports about the code (`pluginResponse` of the client validation) */
  response: Record<string, unknown>;
}

/** A check's answer: the effect the code would have, or why it cannot apply. */
export type CodeCheck =
  | ({ ok: true } & CodeEffect)
  | {
      ok: false;
      error: DomainError;
      response: Record<string, unknown>;
      /** the code is another client's: whoever asks is answered as for an unknown code (nothing about it is told) */
      unknown?: boolean;
    };

/** A code a handler recognised. */
export interface FoundCode {
  namespace: string;
  /** the handler's own reference to the code's record (its id) */
  ref: string;
  /** the code as stored */
  code: string;
}

/**
 * What happened to bookings that carry codes: `confirmed` (paid, or confirmed by the merchant)
 * turns reservations into uses; `released` (failed, cancelled, rejected, payment expired)
 * gives back what the booking took, so a code can be used again and a balance comes back.
 */
export type BookingCodeEvent = 'confirmed' | 'released';

/**
 * A module's handler of its codes. `C` is the context handlers are called with (`Ctx` of
 * kernel/context.ts, whose dependencies hold the handlers: hence a parameter here).
 */
export interface CodeHandler<C> {
  /** `pluginNameSpace` of the contract: `promocodes`, `giftcards`, `subscription` */
  namespace: string;
  /** The company's code matching `code` (each handler decides how codes compare), or null. */
  find(ctx: C, companyId: string, code: string): Promise<FoundCode | null>;
  /** Whether the code applies to the target now, and how. Reads only: a friendly answer, never the guarantee. */
  check(ctx: C, found: FoundCode, target: CodeTarget, now: Date): Promise<CodeCheck>;
  /**
   * Applies the code inside the booking's transaction and records its usage linked to
   * `target.bookingId` as a reservation. Counts and balances are taken with row locks or
   * conditional updates, so concurrent bookings can never together exceed them; throws the
   * `DomainError` of the reason when the code cannot apply (the transaction then rolls back).
   */
  apply(ctx: C, found: FoundCode, target: CodeTarget, now: Date): Promise<CodeEffect>;
  /** Follows the status changes of bookings (inside their transaction); bookings without a usage of this handler are ignored. */
  bookingsChanged(ctx: C, companyId: string, bookingIds: readonly string[], event: BookingCodeEvent, now: Date): Promise<void>;
}

/** Every registered code handler, in lookup order, built once by the composition root. */
export type CodeHandlers<C> = readonly CodeHandler<C>[];

/** Orders handlers by the contract's lookup order; namespaces it does not name keep their registration order after it. */
export function orderCodeHandlers<C>(handlers: readonly CodeHandler<C>[]): CodeHandler<C>[] {
  const rank = (h: CodeHandler<C>) => {
    const i = CODE_LOOKUP_ORDER.indexOf(h.namespace);
    return i < 0 ? CODE_LOOKUP_ORDER.length : i;
  };
  const seen = new Set<string>();
  for (const h of handlers) {
    if (seen.has(h.namespace)) throw new Error(`code namespace ${h.namespace} is registered by two modules`);
    seen.add(h.namespace);
  }
  return handlers
    .map((h, i) => ({ h, i }))
    .sort((a, b) => rank(a.h) - rank(b.h) || a.i - b.i)
    .map((x) => x.h);
}
