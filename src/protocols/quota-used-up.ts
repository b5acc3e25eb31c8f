/**
 * A quota used up, told apart from a rate limit: both come as 429, but a rate limit passes in
 * seconds or minutes while a used-up quota lasts until the plan is topped up or the day ends, so
 * it is a billing failure (402) no client should retry. OpenAI says so by its `insufficient_quota`
 * type or code. Google's RESOURCE_EXHAUSTED serves both: its QuotaFailure detail names the quota,
 * and only a per-day one (`GenerateRequestsPerDayPerProjectPerModel-FreeTier`) is used up; a
 * per-minute one is a rate limit. Its violations are the quotas the request went past, each of
 * them (a model whose free quota is 0 lists the per-minute ones and the per-day one): one per-day
 * quota among them is enough, as a retry in a minute would meet it again.
 */
import { isRecord } from './chat/guards.js';

/** Whether an upstream error object (`error` of OpenAI's or Google's body) says a quota is used up. */
export function quotaUsedUp(err: Readonly<Record<string, unknown>>): boolean {
  if (err.type === 'insufficient_quota' || err.code === 'insufficient_quota') return true;
  return Array.isArray(err.details) && err.details.some(namesDailyQuota);
}

/** A Google error detail (QuotaFailure) whose violations name a per-day quota. */
export function namesDailyQuota(detail: unknown): boolean {
  if (!isRecord(detail) || !Array.isArray(detail.violations)) return false;
  return detail.violations.some((v) => isRecord(v) && typeof v.quotaId === 'string' && /PerDay/.test(v.quotaId));
}
