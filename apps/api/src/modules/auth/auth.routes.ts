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
} from '@mostrador/shared';
import type { App } from '../../app.js';
import { access, authOf } from '../../lib/access.js';
import { AppError, invalid, unauthenticated } from '../../lib/errors.js';
import { clientIp, requireSomeField } from '../../lib/http.js';
import { RateLimiter } from '../../lib/rate-limit.js';
import * as auth from './auth.service.js';
import { confirmationCheckKey, sameKey } from './tokens.js';

const MIN = 60_000;
const tags = ['auth'];

export async function authRoutes(app: App) {
  const svc = app.services;
  const { db } = app.db;
  const limits = {
    loginEmail: new RateLimiter(svc.rateLimits.loginFailuresPerEmail, 15 * MIN),
    loginIp: new RateLimiter(svc.rateLimits.loginFailuresPerIp, 15 * MIN),
    signupIp: new RateLimiter(svc.rateLimits.signupPerHour, 60 * MIN),
    checkIp: new RateLimiter(30, 15 * MIN),
    mailEmail: new RateLimiter(1, MIN),
    mailIp: new RateLimiter(10, 60 * MIN),
    changePassword: new RateLimiter(5, 15 * MIN),
  };

  // Only the login accepts a form body (the existing client posts OAuth2-style fields).
  await app.register(async (scope) => {
    await scope.register(formbody);
    const form = scope.withTypeProvider<ZodTypeProvider>();
    form.post('/auth/login', { config: { access: access.public }, schema: { tags, body: loginInput } }, async (req) => {
      const { username, password } = req.body;
      const ip = clientIp(req);
      limits.loginEmail.check(username);
      limits.loginIp.check(ip);
      const result = await auth.login(db, svc, username, password, ip);
      if (!result) {
        limits.loginEmail.hit(username);
        limits.loginIp.hit(ip);
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
      return result;
    });
  });

  app.post(
    '/auth/signup',
    { config: { access: access.public }, schema: { tags, body: signupInput } },
    async (req, reply) => {
      limits.signupIp.take(clientIp(req));
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

  app.get('/auth/me', { config: { access: access.user }, schema: { tags } }, async (req) => {
    const u = await auth.getUser(db, authOf(req).id);
    if (!u) throw unauthenticated();
    return auth.toUser(u);
  });

  app.put('/auth/profile', { config: { access: access.user }, schema: { tags, body: profileInput } }, async (req) => {
    requireSomeField(req.body);
    return auth.toUser(await auth.updateProfile(db, svc, authOf(req).id, req.body));
  });

  const changeBody = z.preprocess((b) => {
    if (!b || typeof b !== 'object') return b;
    const o = b as Record<string, unknown>;
    return { current_password: o.current_password ?? o.currentPassword, new_password: o.new_password ?? o.newPassword };
  }, changePasswordInput);
  app.put(
    '/auth/change-password',
    { config: { access: access.user }, schema: { tags, body: changeBody } },
    async (req) => {
      const me = authOf(req);
      limits.changePassword.check(me.id);
      const ok = await auth.changePassword(
        db,
        svc,
        me.id,
        me.sessionId,
        req.body.current_password,
        req.body.new_password,
      );
      if (!ok) {
        limits.changePassword.hit(me.id);
        throw invalid('current_password', 'La contraseña actual es incorrecta.');
      }
      return { message: 'Contraseña actualizada correctamente.' };
    },
  );

  app.get(
    '/auth/activate/:token',
    { config: { access: access.public }, schema: { tags, params: z.object({ token: z.string() }) } },
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
      },
    },
    async (req) => {
      limits.checkIp.take(clientIp(req));
      const email = req.params.email.trim().toLowerCase();
      // Whether an address has an account is told only to whoever holds the key the signup gave:
      // anyone else gets false, unknown address or not, without even looking it up.
      const holder = req.query.clave !== undefined && sameKey(req.query.clave, confirmationCheckKey(svc.jwtKey, email));
      const confirmed = holder && Boolean((await auth.findUserByEmail(db, email))?.emailConfirmedAt);
      return { email, confirmed, is_confirmed: confirmed };
    },
  );

  app.post(
    '/auth/resend-confirmation',
    { config: { access: access.public }, schema: { tags, body: emailInput } },
    async (req) => {
      limits.mailEmail.take(`confirm:${req.body.email}`);
      limits.mailIp.take(`confirm:${clientIp(req)}`);
      await auth.resendConfirmation(db, svc, req.body.email);
      return {
        message: 'Si el e-mail está registrado y pendiente de confirmación, te enviamos un nuevo enlace.',
        email: req.body.email,
      };
    },
  );

  app.post('/auth/logout', { config: { access: access.user }, schema: { tags } }, async (req, reply) => {
    await auth.logout(db, svc, authOf(req).sessionId);
    return reply.status(204).send();
  });

  app.post(
    '/auth/forgot-password',
    { config: { access: access.public }, schema: { tags, body: emailInput } },
    async (req) => {
      limits.mailEmail.take(`reset:${req.body.email}`);
      limits.mailIp.take(`reset:${clientIp(req)}`);
      await auth.forgotPassword(db, svc, req.body.email);
      return { message: 'Si el e-mail está registrado, te enviamos un enlace para restablecer la contraseña.' };
    },
  );

  app.post(
    '/auth/reset-password',
    { config: { access: access.public }, schema: { tags, body: resetPasswordInput } },
    async (req) => {
      await auth.resetPassword(db, svc, req.body.token, req.body.new_password);
      return { message: 'Contraseña restablecida. Ya podés iniciar sesión.' };
    },
  );
}
