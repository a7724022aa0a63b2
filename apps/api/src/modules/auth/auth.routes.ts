import formbody from '@fastify/formbody';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  changePasswordInput,
  emailInput,
  loginInput,
  profileInput,
  resetPasswordInput,
  signupInput,
  activationResultSchema,
  confirmationStatusSchema,
  emailMessageSchema,
  loginResponseSchema,
  messageSchema,
  signupResultSchema,
  userSchema,
  apiErrorSchema,
} from '@mostrador/shared';
import { noContent, rateLimitedResponse } from '../../lib/responses.js';
import type { App } from '../../app.js';
import { access, authOf } from '../../lib/access.js';
import { AppError, invalid, unauthenticated } from '../../lib/errors.js';
import { clientIp, requireSomeField } from '../../lib/http.js';
import { RateLimiter } from '../../lib/rate-limit.js';
import * as auth from './auth.service.js';
import { confirmationCheckKey, sameKey } from './tokens.js';

const MIN = 60_000;
/** Distinct addresses one IP may ask check-confirmation about in an hour. */
export const CHECK_ADDRESSES_PER_HOUR = 5;
const tags = ['auth'];

export async function authRoutes(app: App) {
  const svc = app.services;
  const { db } = app.db;
  // Kept in PostgreSQL: every instance on the database counts the same attempts.
  const limit = (name: string, max: number, windowMs: number) => new RateLimiter(db, name, max, windowMs);
  const limits = {
    loginEmail: limit('login_email', svc.rateLimits.loginFailuresPerEmail, 15 * MIN),
    loginIp: limit('login_ip', svc.rateLimits.loginFailuresPerIp, 15 * MIN),
    signupIp: limit('signup_ip', svc.rateLimits.signupPerHour, 60 * MIN),
    checkIp: limit('check_ip', 30, 15 * MIN),
    // check-confirmation tells the truth, so one client may ask about only a few addresses an hour
    // (asking again about one it already asked about is free): a list of addresses cannot be tried.
    checkAddresses: limit('check_addresses_ip', CHECK_ADDRESSES_PER_HOUR, 60 * MIN),
    checkAsked: limit('check_asked', 1_000_000, 60 * MIN),
    mailEmail: limit('mail_email', 1, MIN),
    mailIp: limit('mail_ip', 10, 60 * MIN),
    changePassword: limit('change_password', 5, 15 * MIN),
  };

  // Only the login accepts a form body (the existing client posts OAuth2-style fields).
  await app.register(async (scope) => {
    await scope.register(formbody);
    const form = scope.withTypeProvider<ZodTypeProvider>();
    form.post(
      '/auth/login',
      {
        config: { access: access.public },
        schema: {
          tags,
          body: loginInput, // 401 wrong e-mail or password, 403 e-mail not confirmed.
          response: { 200: loginResponseSchema, 401: apiErrorSchema, 403: apiErrorSchema, ...rateLimitedResponse },
        },
      },
      async (req) => {
        const { username, password } = req.body;
        const ip = clientIp(req);
        // Each attempt counts before the password is checked (so concurrent guesses cannot pass
        // the limit together) and is given back when it was right: only failures stay counted.
        const email = username.trim().toLowerCase();
        await limits.loginEmail.take(email);
        try {
          await limits.loginIp.take(ip);
        } catch (e) {
          await limits.loginEmail.release(email);
          throw e;
        }
        const release = () => Promise.all([limits.loginEmail.release(email), limits.loginIp.release(ip)]);
        const result = await auth.login(db, svc, username, password, ip).catch(async (e: unknown) => {
          // Not a wrong password (an unconfirmed e-mail, an error): not counted.
          await release();
          throw e;
        });
        if (!result) {
          throw new AppError(
            401,
            'INVALID_CREDENTIALS',
            'E-mail o contraseña incorrectos.',
            {},
            {
              'WWW-Authenticate': 'Bearer',
            },
          );
        }
        await release();
        return result;
      },
    );
  });

  app.post(
    '/auth/signup',
    {
      config: { access: access.public },
      schema: {
        tags,
        body: signupInput,
        response: { 201: signupResultSchema, 409: apiErrorSchema, ...rateLimitedResponse },
      },
    },
    async (req, reply) => {
      await limits.signupIp.take(clientIp(req));
      const confirmed = await auth.signup(db, svc, req.body);
      return reply.status(201).send(
        confirmed
          ? { message: 'Cuenta creada. Ya podés iniciar sesión.', email: req.body.email, requires_confirmation: false }
          : {
              message: 'Cuenta creada. Te enviamos un e-mail para confirmarla.',
              email: req.body.email,
              requires_confirmation: true,
              // Only the browser that signed up can then ask check-confirmation about this address.
              clave_consulta: confirmationCheckKey(svc.jwtKey, req.body.email),
            },
      );
    },
  );

  app.get(
    '/auth/me',
    { config: { access: access.user }, schema: { tags, response: { 200: userSchema } } },
    async (req) => {
      const u = await auth.getUser(db, authOf(req).id);
      if (!u) throw unauthenticated();
      return auth.toUser(u);
    },
  );

  app.put(
    '/auth/profile',
    { config: { access: access.user }, schema: { tags, body: profileInput, response: { 200: userSchema } } },
    async (req) => {
      requireSomeField(req.body);
      return auth.toUser(await auth.updateProfile(db, svc, authOf(req).id, req.body));
    },
  );

  const changeBody = z.preprocess((b) => {
    if (!b || typeof b !== 'object') return b;
    const o = b as Record<string, unknown>;
    return { current_password: o.current_password ?? o.currentPassword, new_password: o.new_password ?? o.newPassword };
  }, changePasswordInput);
  app.put(
    '/auth/change-password',
    {
      config: { access: access.user },
      schema: { tags, body: changeBody, response: { 200: messageSchema, ...rateLimitedResponse } },
    },
    async (req) => {
      const me = authOf(req);
      await limits.changePassword.take(me.id);
      const ok = await auth
        .changePassword(db, svc, me.id, me.sessionId, req.body.current_password, req.body.new_password)
        .catch(async (e: unknown) => {
          // Not a wrong password: not counted.
          await limits.changePassword.release(me.id);
          throw e;
        });
      if (!ok) throw invalid('current_password', 'La contraseña actual es incorrecta.');
      await limits.changePassword.release(me.id);
      return { message: 'Contraseña actualizada correctamente.' };
    },
  );

  app.get(
    '/auth/activate/:token',
    {
      config: { access: access.public },
      schema: { tags, params: z.object({ token: z.string() }), response: { 200: activationResultSchema } },
    },
    async (req) => {
      const r = await auth.activate(db, svc, req.params.token);
      return { message: 'Tu e-mail fue confirmado. Ya podés iniciar sesión.', email: r.email, status: r.status };
    },
  );

  app.get(
    '/auth/check-confirmation/:email',
    {
      config: { access: access.public },
      schema: {
        tags,
        params: z.object({ email: z.string() }),
        querystring: z.object({ clave: z.string().max(200).optional() }),
        response: { 200: confirmationStatusSchema, ...rateLimitedResponse },
      },
    },
    async (req) => {
      const ip = clientIp(req);
      await limits.checkIp.take(ip);
      const email = req.params.email.trim().toLowerCase();
      // The truth for the address asked (the contract's client polls it after signup, without a
      // key). The browser that signed up holds a key that is never limited; anyone else may ask
      // about CHECK_ADDRESSES_PER_HOUR different addresses an hour, so addresses cannot be tried
      // in bulk. An unknown address answers false, as an unconfirmed one does.
      const holder = req.query.clave !== undefined && sameKey(req.query.clave, confirmationCheckKey(svc.jwtKey, email));
      if (!holder) {
        const asked = `${ip} ${email}`;
        if (!(await limits.checkAsked.counted(asked))) await limits.checkAddresses.take(ip);
        await limits.checkAsked.take(asked);
      }
      const confirmed = Boolean((await auth.findUserByEmail(db, email))?.emailConfirmedAt);
      return { email, confirmed, is_confirmed: confirmed };
    },
  );

  app.post(
    '/auth/resend-confirmation',
    {
      config: { access: access.public },
      schema: { tags, body: emailInput, response: { 200: emailMessageSchema, ...rateLimitedResponse } },
    },
    async (req) => {
      await limits.mailEmail.take(`confirm:${req.body.email}`);
      await limits.mailIp.take(`confirm:${clientIp(req)}`);
      await auth.resendConfirmation(db, svc, req.body.email);
      return {
        message: 'Si el e-mail está registrado y pendiente de confirmación, te enviamos un nuevo enlace.',
        email: req.body.email,
      };
    },
  );

  app.post(
    '/auth/logout',
    { config: { access: access.user }, schema: { tags, response: { 204: noContent } } },
    async (req, reply) => {
      await auth.logout(db, svc, authOf(req).sessionId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/auth/forgot-password',
    {
      config: { access: access.public },
      schema: { tags, body: emailInput, response: { 200: messageSchema, ...rateLimitedResponse } },
    },
    async (req) => {
      await limits.mailEmail.take(`reset:${req.body.email}`);
      await limits.mailIp.take(`reset:${clientIp(req)}`);
      await auth.forgotPassword(db, svc, req.body.email);
      return { message: 'Si el e-mail está registrado, te enviamos un enlace para restablecer la contraseña.' };
    },
  );

  app.post(
    '/auth/reset-password',
    { config: { access: access.public }, schema: { tags, body: resetPasswordInput, response: { 200: messageSchema } } },
    async (req) => {
      await auth.resetPassword(db, svc, req.body.token, req.body.new_password);
      return { message: 'Contraseña restablecida. Ya podés iniciar sesión.' };
    },
  );
}
