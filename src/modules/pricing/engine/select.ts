import { compileLimitation, MATCH_ANY, type Matcher } from './limitation';
import type { MatchContext } from './types';
import type { LimitationInput } from '../../../shared/limitation';

/** What rule choice needs of a rule: price rules, discounts and capacity rules all fit. */
export interface RankedRule {
  id: string;
  priority: number;
  /** creation time in epoch ms */
  createdAt: number;
  limitation?: LimitationInput | null;
}

/**
 * Choice order: highest priority first, ties to the most recently created. Equal creation
 * times (bulk imports, coarse clocks) fall back to the larger id so that the order is total
 * and the same rule wins on every process; ids compare by code unit, never by locale, and
 * time-ordered ids (UUID v7) make "larger" also mean "newer".
 */
export function compareRank(a: RankedRule, b: RankedRule): number {
  if (a.priority !== b.priority) return b.priority > a.priority ? 1 : -1;
  if (a.createdAt !== b.createdAt) return b.createdAt > a.createdAt ? 1 : -1;
  if (a.id === b.id) return 0;
  return b.id > a.id ? 1 : -1;
}

/**
 * A set of rules ready for choice at many candidate times. Rules are sorted and their
 * limitations compiled once here, so choosing is a scan that stops at the first match.
 */
export class RuleChooser<T extends RankedRule> {
  /** the rules in choice order */
  readonly rules: readonly T[];
  private readonly matchers: readonly Matcher[];

  constructor(rules: readonly T[], zone: string) {
    this.rules = [...rules].sort(compareRank);
    this.matchers = this.rules.map((r) => compileLimitation(r.limitation, zone));
  }

  get size(): number {
    return this.rules.length;
  }

  /** Whether `choose` gives the same rule at every context: there is none, or the first one applies everywhere. */
  get chosenEverywhere(): boolean {
    return this.rules.length === 0 || this.matchers[0] === MATCH_ANY;
  }

  /** Whether `applicable` gives the same rules at every context: each applies everywhere. */
  get unconditional(): boolean {
    return this.matchers.every((m) => m === MATCH_ANY);
  }

  /** The rule that applies at `ctx`, or undefined when none does. */
  choose(ctx: MatchContext): T | undefined {
    const { rules, matchers } = this;
    for (let i = 0; i < rules.length; i++) if (matchers[i](ctx)) return rules[i];
    return undefined;
  }

  /** Like `choose`, among the rules that `accept` also admits (e.g. a discount covering the count). */
  chooseWhere(ctx: MatchContext, accept: (rule: T) => boolean): T | undefined {
    const { rules, matchers } = this;
    for (let i = 0; i < rules.length; i++) if (accept(rules[i]) && matchers[i](ctx)) return rules[i];
    return undefined;
  }

  /** Every rule whose limitation matches `ctx`, in choice order. */
  applicable(ctx: MatchContext): T[] {
    const out: T[] = [];
    const { rules, matchers } = this;
    for (let i = 0; i < rules.length; i++) if (matchers[i](ctx)) out.push(rules[i]);
    return out;
  }
}

export function createRuleChooser<T extends RankedRule>(rules: readonly T[], zone: string): RuleChooser<T> {
  return new RuleChooser(rules, zone);
}
