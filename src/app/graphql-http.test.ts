import { APPLICATION_JSON, GRAPHQL_RESPONSE_JSON, graphqlErrorStatus, graphqlMediaType, isGraphqlRequest } from './graphql-http';

describe('graphqlMediaType', () => {
  it.each([
    [undefined, APPLICATION_JSON],
    ['', APPLICATION_JSON],
    ['*/*', APPLICATION_JSON],
    ['application/json', APPLICATION_JSON],
    ['application/graphql-response+json', GRAPHQL_RESPONSE_JSON],
    ['application/graphql-response+json, application/json;q=0.9', GRAPHQL_RESPONSE_JSON],
    ['application/json, application/graphql-response+json', APPLICATION_JSON],
    ['application/graphql-response+json, application/json', GRAPHQL_RESPONSE_JSON],
    ['application/json;q=0.5, application/graphql-response+json;q=0.8', GRAPHQL_RESPONSE_JSON],
    ['application/graphql-response+json, */*', GRAPHQL_RESPONSE_JSON],
    ['application/*', APPLICATION_JSON],
    ['text/html', null],
    ['application/graphql-response+json;q=0, application/json', APPLICATION_JSON],
  ])('Accept %p -> %p', (accept, expected) => {
    expect(graphqlMediaType(accept)).toBe(expected);
  });
});

describe('graphqlErrorStatus', () => {
  it('keeps the status for graphql-response+json, 200 for a well-formed request in application/json', () => {
    expect(graphqlErrorStatus(GRAPHQL_RESPONSE_JSON, 401, true)).toBe(401);
    expect(graphqlErrorStatus(GRAPHQL_RESPONSE_JSON, 429, true)).toBe(429);
    expect(graphqlErrorStatus(APPLICATION_JSON, 401, true)).toBe(200);
    expect(graphqlErrorStatus(APPLICATION_JSON, 429, true)).toBe(200);
    expect(graphqlErrorStatus(APPLICATION_JSON, 400, false)).toBe(400);
    expect(graphqlErrorStatus(APPLICATION_JSON, 413, false)).toBe(413);
  });
  it('never hides a server failure', () => {
    expect(graphqlErrorStatus(APPLICATION_JSON, 503, true)).toBe(503);
    expect(graphqlErrorStatus(APPLICATION_JSON, 500, true)).toBe(500);
    expect(graphqlErrorStatus(GRAPHQL_RESPONSE_JSON, 503, true)).toBe(503);
  });
});

describe('isGraphqlRequest', () => {
  it('matches the path only', () => {
    expect(isGraphqlRequest('/graphql')).toBe(true);
    expect(isGraphqlRequest('/graphql?query=%7B%7D')).toBe(true);
    expect(isGraphqlRequest('/graphql/')).toBe(true);
    expect(isGraphqlRequest('/graphqlx')).toBe(false);
    expect(isGraphqlRequest('/v1/graphql')).toBe(false);
    expect(isGraphqlRequest(undefined)).toBe(false);
  });
});
