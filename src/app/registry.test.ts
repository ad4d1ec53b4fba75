import type { DocumentPrinter, DocumentSource } from '../kernel/documents';
import type { AppModule } from '../kernel/module';
import { documentsOf, printerOf } from './registry';
import type { AppDeps, Ctx } from '../kernel/context';

const source: DocumentSource<Ctx> = async () => null;
const mod = (name: string, documents: AppModule['documents']): AppModule => ({
  name,
  description: name,
  entities: [],
  resolvers: [],
  documents,
});

describe('documentsOf', () => {
  it('collects every module’s document sources by entity type', () => {
    const other: DocumentSource<Ctx> = async () => null;
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

describe('printerOf', () => {
  const deps = {} as AppDeps;
  const printer: DocumentPrinter<Ctx> = async () => null;
  const printing = (name: string): AppModule => ({
    name,
    description: name,
    entities: [],
    resolvers: [],
    printer: (d) => (d === deps ? printer : null!),
  });

  it('binds the one printing module’s printer to the server’s deps; none without one', () => {
    expect(printerOf(deps, [mod('a', undefined), printing('document')])).toBe(printer);
    expect(printerOf(deps, [mod('a', undefined)])).toBeUndefined();
  });

  it('refuses two printing modules', () => {
    expect(() => printerOf(deps, [printing('a'), printing('b')])).toThrow('documents are printed by two modules: a, b');
  });
});
