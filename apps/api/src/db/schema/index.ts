export * from './users.js';
export * from './businesses.js';
export * from './customers.js';
