import { PASSWORD_MESSAGES } from '@mostrador/shared';
import { dictionary } from '@zxcvbn-ts/language-common';
import { invalid } from '../../lib/errors.js';

/*
 * New passwords are checked against the common passwords that zxcvbn-ts keeps (about 50,000,
 * from leaked password lists, updated with its releases): only those of 8 or more characters can
 * reach this check, since shorter ones are refused for their length. The forms check only the
 * short list in @mostrador/shared, so the web app does not carry this one.
 */
const COMMON = new Set(dictionary['passwords-common'].filter((p) => p.length >= 8).map((p) => p.toLowerCase()));

export const isCommonPassword = (password: string) => COMMON.has(password.toLowerCase());

/** 422 on `field` when the new password is a common one. */
export function refuseCommonPassword(field: string, password: string) {
  if (isCommonPassword(password)) throw invalid(field, PASSWORD_MESSAGES.common);
}
