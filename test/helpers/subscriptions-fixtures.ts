import { randomUUID } from 'node:crypto';
import type { TestApp } from './app';

/**
 * Subscription catalog rows for the commerce tests (subscriptions, price and capacity rules,
 * settings), inserted into the real tables so the tests of the cart, checkout and bookings do
 * not depend on the admin routes' validation.
 */
export class SubscriptionFixtures {
  constructor(
    private t: TestApp,
    readonly companyId: string,
  ) {}

  private async sql(text: string, params: unknown[]): Promise<void> {
    await this.t.deps.orm.em.fork().getConnection().execute(text, params);
  }

  async subscription(
    f: {
      title?: string;
      duration?: string | null;
      limitations?: Record<string, unknown>;
      serviceIds?: string[];
      resourceIds?: string[];
      rRule?: string | null;
      recurringEnabled?: boolean;
      recurringInterval?: string | null;
      recurringIntervalCount?: number | null;
      rollOverSettings?: Record<string, unknown>;
      archived?: boolean;
    } = {},
  ): Promise<string> {
    const id = randomUUID();
    await this.sql(
      `insert into subscription (id, company_id, title, duration, limitations, service_ids, resource_ids, rrule, recurring_enabled,
         recurring_interval, recurring_interval_count, roll_over_settings, archived_at)
       values (?, ?, ?, ?, ?::jsonb, ?::uuid[], ?::uuid[], ?, ?, ?, ?, ?::jsonb, ?)`,
      [
        id,
        this.companyId,
        f.title ?? 'Membership',
        f.duration === undefined ? 'P30D' : f.duration,
        JSON.stringify(f.limitations ?? {}),
        `{${(f.serviceIds ?? []).join(',')}}`,
        `{${(f.resourceIds ?? []).join(',')}}`,
        f.rRule ?? null,
        f.recurringEnabled ?? false,
        f.recurringInterval ?? null,
        f.recurringIntervalCount ?? null,
        JSON.stringify(f.rollOverSettings ?? { rollOverType: 'none', settings: {} }),
        f.archived ? new Date().toISOString() : null,
      ],
    );
    return id;
  }

  async price(subscriptionIds: string[], price: number, priority = 1): Promise<string> {
    const id = randomUUID();
    await this.sql(
      `insert into subscription_price_rule (id, company_id, subscription_ids, price, priority) values (?, ?, ?::uuid[], ?, ?)`,
      [id, this.companyId, `{${subscriptionIds.join(',')}}`, price, priority],
    );
    return id;
  }

  async capacity(subscriptionIds: string[], maxCount: number, priority = 1): Promise<string> {
    const id = randomUUID();
    await this.sql(
      `insert into subscription_capacity_rule (id, company_id, subscription_ids, max_count, priority) values (?, ?, ?::uuid[], ?, ?)`,
      [id, this.companyId, `{${subscriptionIds.join(',')}}`, maxCount, priority],
    );
    return id;
  }

  async settings(s: { currency?: string | null; taxInclusive?: boolean; taxRate?: number; cartExpiration?: string }): Promise<void> {
    await this.sql(
      `insert into subscription_settings (id, company_id, cart_expiration, currency, tax_inclusive, tax_rate) values (?, ?, ?, ?, ?, ?)
       on conflict (company_id) do update set cart_expiration = excluded.cart_expiration, currency = excluded.currency,
         tax_inclusive = excluded.tax_inclusive, tax_rate = excluded.tax_rate`,
      [randomUUID(), this.companyId, s.cartExpiration ?? 'PT15M', s.currency ?? 'EUR', s.taxInclusive ?? false, s.taxRate ?? 0],
    );
  }

  /** Ledger entries of a contract, oldest first. */
  async ledger(contractId: string): Promise<{ amount: number; type: string; periodStart: string | null }[]> {
    const rows = (await this.t.deps.orm.em
      .fork()
      .getConnection()
      .execute(
        `select amount, transaction_type, period_start from subscription_visit where company_id = ? and contract_id = ? order by created_at, seq`,
        [this.companyId, contractId],
      )) as { amount: number; transaction_type: string; period_start: Date | null }[];
    return rows.map((r) => ({
      amount: r.amount,
      type: r.transaction_type,
      periodStart: r.period_start ? new Date(r.period_start).toISOString() : null,
    }));
  }

  async balance(contractId: string): Promise<number> {
    return (await this.ledger(contractId)).reduce((s, e) => s + e.amount, 0);
  }

  async contractRow(contractId: string): Promise<Record<string, any>> {
    const rows = (await this.t.deps.orm.em
      .fork()
      .getConnection()
      .execute(`select * from subscription_contract where company_id = ? and id = ?`, [this.companyId, contractId])) as Record<
      string,
      any
    >[];
    return rows[0];
  }
}
