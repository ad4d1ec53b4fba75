import { GraphQLScalarType, Kind } from 'graphql';
import { parseLocalTime } from '../shared/duration';

/** `HH:MM` 24-hour local time of day (`24:00` allowed as an end of day). */
export const LocalTimeScalar = new GraphQLScalarType({
  name: 'LocalTime',
  description: 'A local time of day HH:MM (24 h); 24:00 marks the end of a day where allowed.',
  serialize: (v) => v,
  parseValue: (v) => {
    if (parseLocalTime(v, true) === null) throw new TypeError('LocalTime must be HH:MM');
    return v;
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING || parseLocalTime(ast.value, true) === null) throw new TypeError('LocalTime must be HH:MM');
    return ast.value;
  },
});
