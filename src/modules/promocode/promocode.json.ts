import type { MetaData } from '../../shared/metadata';
import { formatTimestamp } from '../../shared/time';
import type { DiscountType, PromoRule, UsageType } from './discount';
import type { PromoCode, PromoUsage } from './promocode.entity';
import type { PromoUsageStatus } from './promo-usage.status';

/** REST JSON of promo codes and usages; GraphQL resolvers return the same objects. */

export interface PromoCodeJson {
  id: string;
  companyID: string;
  title: string;
  code: string;
  description: string | null;
  active: boolean;
  activeFrom: string | null;
  activeTo: string | null;
  reservationAllowanceFrom: string | null;
  reservationAllowanceTo: string | null;
  discountType: DiscountType;
  discountAmount: number | null;
  discountPercent: number | null;
  maxDiscountAmount: number | null;
  serviceIds: string[];
  usageType: UsageType;
  usageLimit: number | null;
  currentUsageCount: number;
  metaData: MetaData;
  metaDataVersion: number;
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface PromoUsageJson {
  id: string;
  promoCodeID: string;
  companyID: string;
  clientID: string | null;
  reservationID: string | null;
  discountAmount: number;
  currency: string | null;
  status: PromoUsageStatus;
  metaData: MetaData;
  metaDataVersion: number;
  createdAt: string;
  updatedAt: string;
}

export function promoCodeJson(p: PromoCode): PromoCodeJson {
  return {
    id: p.id,
    companyID: p.companyId,
    title: p.title,
    code: p.code,
    description: p.description,
    active: p.active,
    activeFrom: formatTimestamp(p.activeFrom),
    activeTo: formatTimestamp(p.activeTo),
    reservationAllowanceFrom: formatTimestamp(p.reservationAllowanceFrom),
    reservationAllowanceTo: formatTimestamp(p.reservationAllowanceTo),
    discountType: p.discountType,
    discountAmount: p.discountAmount,
    discountPercent: p.discountPercent,
    maxDiscountAmount: p.maxDiscountAmount,
    serviceIds: p.serviceIds ?? [],
    usageType: p.usageType,
    usageLimit: p.usageLimit,
    currentUsageCount: p.currentUsageCount,
    metaData: p.metaData ?? {},
    metaDataVersion: p.metaDataVersion,
    archivedAt: formatTimestamp(p.archivedAt),
    createdAt: formatTimestamp(p.createdAt)!,
    updatedAt: formatTimestamp(p.updatedAt)!,
  };
}

export function promoUsageJson(u: PromoUsage): PromoUsageJson {
  return {
    id: u.id,
    promoCodeID: u.promoCodeId,
    companyID: u.companyId,
    clientID: u.clientId,
    reservationID: u.reservationId,
    discountAmount: u.discountAmount,
    currency: u.currency,
    status: u.status,
    metaData: u.metaData ?? {},
    metaDataVersion: u.metaDataVersion,
    createdAt: formatTimestamp(u.createdAt)!,
    updatedAt: formatTimestamp(u.updatedAt)!,
  };
}

const ms = (d: Date | null): number | null => (d ? d.getTime() : null);

/** What the pure rule reads of a stored code. */
export function ruleOf(p: PromoCode): PromoRule {
  return {
    active: p.active,
    archived: p.archivedAt !== null,
    activeFrom: ms(p.activeFrom),
    activeTo: ms(p.activeTo),
    reservationAllowanceFrom: ms(p.reservationAllowanceFrom),
    reservationAllowanceTo: ms(p.reservationAllowanceTo),
    discountType: p.discountType,
    discountAmount: p.discountAmount,
    discountPercent: p.discountPercent,
    maxDiscountAmount: p.maxDiscountAmount,
    serviceIds: p.serviceIds ?? [],
    usageType: p.usageType,
    usageLimit: p.usageLimit,
    currentUsageCount: p.currentUsageCount,
  };
}
