/**
 * All request bodies held in memory at once, every request together (settings.bodyBudgetBytes):
 * bodyLimitBytes caps one body, this caps their sum, so many large conversations at once (or a
 * client gone wild) cannot grow the daemon without bound. A request's bytes are counted as they
 * arrive and given back when its handling ends (answered, failed or abandoned: engine.ts), so
 * the cost per request is an add and a subtract on one counter.
 */
import type { IncomingMessage } from 'node:http';
import { AdvisedError } from './advised-error.js';

export class BodyBudget {
  /** Bytes of request bodies held now. */
  held = 0;
  constructor(public limit: number) {}
}

/** One request's share: the budget it draws from and what it has drawn (an Exchange is one). */
export interface BodyClaim {
  bodyBudget: BodyBudget;
  bodyBytes: number;
}

/** A refused client is told to wait a moment: bodies in flight are usually answered within that. */
export const OVERLOADED_ADVICE: Record<string, string> = { 'retry-after': '2' };

export function overloaded(limit: number): AdvisedError {
  return new AdvisedError(
    503,
    'proxy_overloaded',
    `svc-proxy holds as many request bodies as it may at once (settings.bodyBudgetBytes, ${limit} bytes); retry in a moment.`,
    OVERLOADED_ADVICE,
  );
}

/** Whether a body's declared length alone would pass the budget beside the bodies held now: checked before a byte is read. */
export function declaredOverBudget(req: IncomingMessage, budget: BodyBudget): boolean {
  const declared = req.headers['content-length'];
  return declared !== undefined && budget.held + Number(declared) > budget.limit;
}

/** Draw `bytes` more for the request; false, drawing nothing, when they would pass the budget. */
export function drawBody(claim: BodyClaim, bytes: number): boolean {
  const budget = claim.bodyBudget;
  if (budget.held + bytes > budget.limit) return false;
  budget.held += bytes;
  claim.bodyBytes += bytes;
  return true;
}

/** Give back what the request drew; safe to call more than once. */
export function releaseBody(claim: BodyClaim): void {
  claim.bodyBudget.held -= claim.bodyBytes;
  claim.bodyBytes = 0;
}
