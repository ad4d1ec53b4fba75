/**
 * Signals that stop the server gracefully: SIGTERM (a supervisor), SIGINT (Ctrl-C) and SIGHUP
 * (the terminal that runs it was closed; its default would end the process at once and leave
 * the embedded PostgreSQL running).
 */
export const SHUTDOWN_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];
