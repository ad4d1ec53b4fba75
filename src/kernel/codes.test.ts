import { orderCodeHandlers, type CodeHandler } from './codes';

const handler = (namespace: string): CodeHandler<unknown> => ({
  namespace,
  find: async () => null,
  check: async () => ({ ok: true, discount: 0, covered: 0, response: {} }),
  apply: async () => ({ discount: 0, covered: 0, response: {} }),
  bookingsChanged: async () => undefined,
});

describe('code handler order', () => {
  it("follows the contract's lookup order whatever the registration order; unknown namespaces follow", () => {
    const ordered = orderCodeHandlers([
      handler('loyalty'),
      handler('subscription'),
      handler('giftcards'),
      handler('vouchers'),
      handler('promocodes'),
    ]);
    expect(ordered.map((h) => h.namespace)).toEqual(['promocodes', 'giftcards', 'subscription', 'loyalty', 'vouchers']);
  });

  it('refuses a namespace registered twice', () => {
    expect(() => orderCodeHandlers([handler('promocodes'), handler('promocodes')])).toThrow(/two modules/);
  });
});
