/** The kinds of service the platform books (specification, "Service"). */
export const SERVICE_TYPES = ['fixed', 'flexible', 'group', 'ticket', 'days', 'sharable'] as const;

export type ServiceType = (typeof SERVICE_TYPES)[number];
