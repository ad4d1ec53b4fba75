/** Counts SQL statements sent to the database; read by /metrics and by tests that bound query counts. */
export const sqlStats = { statements: 0 };
