import type { DocumentSource } from '../kernel/documents';
import type { AppModule } from '../kernel/module';
import { documentsOf } from './registry';

const source: DocumentSource = async () => null;
const mod = (name: string, documents: AppModule['documents']): AppModule => ({ name, entities: [], resolvers: [], documents });

describe('documentsOf', () => {
  it('collects every module’s document sources by entity type', () => {
    const other: DocumentSource = async () => null;
    const m = documentsOf([mod('a', { gift_card: source }), mod('b', { membership: other }), mod('c', undefined)]);
    expect([...m.keys()]).toEqual(['gift_card', 'membership']);
    expect(m.get('membership')).toBe(other);
  });

  it('refuses an entity type registered by two modules', () => {
    expect(() => documentsOf([mod('a', { gift_card: source }), mod('b', { gift_card: source })])).toThrow(
      'entity type gift_card is registered by two modules',
    );
  });
});
