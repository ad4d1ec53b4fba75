/** An amount in the smallest currency unit, with the amount it is compared with (a struck-through price). */
export interface Money {
  amount: number;
  comparedAmount: number;
  currency: string;
}
