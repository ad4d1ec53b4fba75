import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DurationScalar, JSONObjectScalar } from '../../kernel/graphql-scalars';
import { CODE_LOOKUP_ORDER } from '../../kernel/codes';

/** GraphQL types of the client's code validation. */

export const CodePluginNamespaceEnum = Object.fromEntries(CODE_LOOKUP_ORDER.map((n) => [n, n])) as Record<string, string>;
registerEnumType(CodePluginNamespaceEnum, {
  name: 'CodePluginNamespace',
  description: 'The kind of record a booking code names, in the order codes are looked up.',
  valuesConfig: {
    promocodes: { description: 'A promo code: lowers the price.' },
    giftcards: { description: 'A gift card: pays the price up to its balance.' },
    subscription: { description: 'A subscription contract.' },
  },
});

@ObjectType('CodeValidation', { description: 'What a code would do to a booking.' })
export class CodeValidationType {
  @Field({ description: 'True when the code applies to the booking.' }) canApply!: boolean;
  @Field(() => String, { nullable: true, description: "The calling client's email (null with an API key)." }) clientEmail!: string | null;
  @Field(() => ID, { nullable: true, description: 'The calling client (null with an API key).' }) clientID!: string | null;
  @Field(() => CodePluginNamespaceEnum, { nullable: true, description: 'The kind of code; null when the code is unknown.' })
  pluginNameSpace!: string | null;
  @Field(() => JSONObjectScalar, { description: "The code's plugin report; errorMessage says why a code cannot apply." })
  pluginResponse!: Record<string, unknown>;
  @Field(() => Int, { description: 'What the booking would cost to pay with the code (smallest currency unit).' }) price!: number;
}

@InputType('CodeValidationTicketInput', { description: 'Tickets of one kind.' })
export class CodeValidationTicketInput {
  @Field(() => ID, { description: 'The ticket.' }) ticketID!: string;
  @Field(() => Int, { description: 'How many.' }) count!: number;
}

@InputType('ValidateCodeInput', { description: 'The booking a client asks a code about (as for requestBooking).' })
export class ValidateCodeInput {
  @Field(() => ID, { description: 'The company.' }) companyID!: string;
  @Field(() => ID, { description: 'The service.' }) serviceID!: string;
  @Field(() => ID, { nullable: true, description: 'The resource (default: the first available linked resource by name).' })
  resourceID?: string | null;
  @Field(() => Date, { description: 'Start of the booking.' }) startTime!: Date;
  @Field(() => DurationScalar, { nullable: true, description: 'Length, for flexible and days services.' }) duration?: string | null;
  @Field(() => Int, { nullable: true, description: 'Spots, for group services (default 1).' }) spots?: number | null;
  @Field(() => [CodeValidationTicketInput], { nullable: true, description: 'Tickets, for ticket services.' })
  tickets?: CodeValidationTicketInput[] | null;
}
