/** The shape of one admin API resource module (one file per resource under src/server/admin/). */
import type { Hono } from 'hono';
import type { AdminContext } from './context.js';

export interface AdminModule {
  /** Mounted at /admin<path>, e.g. "/keys". */
  path: string;
  routes(ctx: AdminContext): Hono;
}
