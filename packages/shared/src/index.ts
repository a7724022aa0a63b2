export * from './validation.js';
export * from './money.js';
export * from './cuit.js';
export * from './permissions.js';
export * from './settings.js';
export * from './auth.js';
export * from './businesses.js';
export * from './plans.js';
