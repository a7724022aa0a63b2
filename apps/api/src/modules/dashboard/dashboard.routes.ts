import { z } from 'zod';
import {
  dashboardQuery,
  recentActivityQuery,
  topProductsChartQuery,
  businessHealthSchema,
  dashboardStatsSchema,
  dashboardStatsV1Schema,
  monthlySalesChartSchema,
  recentActivitySchema,
  topProductsChartSchema,
} from '@mostrador/shared';
import type { App } from '../../app.js';
import { access, businessOf } from '../../lib/access.js';
import {
  dashboardStats,
  dashboardStatsV1,
  healthCheck,
  monthlySalesChart,
  recentActivity,
  topProductsChart,
} from './dashboard.service.js';

const tags = ['tablero'];
const ver = { access: access.module('ventas', 'ver') };
// negocio_id / business_id are read by the access hook (API-CONTRACT §1.5); listed for the docs.
const business = { negocio_id: z.string().optional(), business_id: z.string().optional() };

/**
 * Dashboard figures on the global mount (API-CONTRACT §6.5): business per §1.5, business time
 * zone, voided sales left out.
 */
export async function dashboardRoutes(app: App) {
  const { db } = app.db;

  app.get(
    '/ventas/dashboard-stats-v2',
    {
      config: ver,
      schema: { tags, querystring: dashboardQuery.extend(business), response: { 200: dashboardStatsSchema } },
    },
    async (req, reply) =>
      dashboardStats(await app.reports.db(reply), businessOf(req), req.query.periodo, app.services.now()),
  );

  app.get(
    '/ventas/dashboard-stats',
    { config: ver, schema: { tags, querystring: z.object(business), response: { 200: dashboardStatsV1Schema } } },
    async (req, reply) => dashboardStatsV1(await app.reports.db(reply), businessOf(req), app.services.now()),
  );

  app.get(
    '/ventas/recent-activity',
    {
      config: ver,
      schema: { tags, querystring: recentActivityQuery.extend(business), response: { 200: recentActivitySchema } },
    },
    async (req, reply) => recentActivity(await app.reports.db(reply), businessOf(req), req.query.limit),
  );

  app.get(
    '/ventas/monthly-sales-chart',
    { config: ver, schema: { tags, querystring: z.object(business), response: { 200: monthlySalesChartSchema } } },
    async (req, reply) => monthlySalesChart(await app.reports.db(reply), businessOf(req), app.services.now()),
  );

  app.get(
    '/ventas/top-products-chart',
    {
      config: ver,
      schema: { tags, querystring: topProductsChartQuery.extend(business), response: { 200: topProductsChartSchema } },
    },
    async (req, reply) =>
      topProductsChart(await app.reports.db(reply), businessOf(req), app.services.now(), req.query.dias),
  );

  app.get(
    '/ventas/health-check',
    {
      config: { access: access.member },
      schema: {
        tags,
        querystring: z.object(business),
        response: { 200: businessHealthSchema, 503: businessHealthSchema },
      },
    },
    async (req, reply) => {
      const r = await healthCheck(db, businessOf(req).id);
      return reply.status(r.ok ? 200 : 503).send(r.body);
    },
  );
}
