export * from './users.js';
export * from './businesses.js';
export * from './customers.js';
export * from './finance.js';
export * from './invitations.js';
