// The builder moved to the kernel so that e-mail invitations share it (same UID and SEQUENCE).
export { renderFeed, type FeedCalendar, type FeedEvent } from '../../kernel/ics';
