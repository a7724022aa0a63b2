import { lazyPart } from '@/lib/lazy-part';

/*
 * The parts of the shell that the first screen does not show: their code (Radix's menu and
 * dialog among it) loads when they are first used, so the dashboard's first load stays small.
 */
export const BusinessMenu = lazyPart(() => import('./business-menu'));
export const ProfileMenu = lazyPart(() => import('./profile-menu'));
export const MobileMenu = lazyPart(() => import('./mobile-menu'));
export const NoBusinessDialog = lazyPart(() => import('./no-business-dialog'));
