export * from './users.js';
export * from './businesses.js';
