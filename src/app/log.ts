// Query parameters that carry a capability (a booking's access token); never logged.
const SECRET_PARAMS = /([?&](?:accessToken|access_token|token|refreshToken)=)[^&#]*/gi;

/** The request URL as logged: capabilities in the query string are replaced. */
export const redactUrl = (url: string): string => url.replace(SECRET_PARAMS, '$1[redacted]');
