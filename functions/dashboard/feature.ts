/**
 * The dashboard (DESIGN §8): pages for members, signed in by session cookie; one Lambda of its own.
 */
import type { Feature } from '../feature.ts';
import { routesOf } from '../platform/route.ts';
import { dashboardOperations as ops } from './operations.ts';

export const dashboardFeature: Feature = {
  name: 'dashboard',
  routes: routesOf('dashboard', [
    { method: 'GET', path: '/dashboard', handler: 'home', size: 'small', op: ops.home },
    { method: 'GET', path: '/dashboard/app.js', handler: 'asset', size: 'small', op: ops.asset },
    { method: 'GET', path: '/dashboard/app.css', handler: 'asset', size: 'small', op: ops.asset },
    { method: 'GET', path: '/dashboard/pdf.js', handler: 'asset', size: 'small', op: ops.asset },
    { method: 'GET', path: '/dashboard/pdf.worker.js', handler: 'asset', size: 'small', op: ops.asset },
    { method: 'GET', path: '/dashboard/sign-in', handler: 'signInPage', size: 'small', op: ops.signInPage },
    { method: 'POST', path: '/dashboard/sign-in', handler: 'signIn', size: 'small', op: ops.signIn },
    { method: 'GET', path: '/dashboard/sign-in/link', handler: 'linkPage', size: 'small', op: ops.linkPage },
    { method: 'POST', path: '/dashboard/sign-in/link', handler: 'useLink', size: 'small', op: ops.useLink },
    { method: 'POST', path: '/dashboard/sign-out', handler: 'signOut', size: 'small', op: ops.signOut },
    { method: 'POST', path: '/dashboard/organization', handler: 'switchOrganizationPost', size: 'small', op: ops.switchOrganization },
    { method: 'GET', path: '/dashboard/account', handler: 'accountPage', size: 'small', op: ops.accountPage },
    { method: 'POST', path: '/dashboard/account/password', handler: 'setPasswordPost', size: 'small', op: ops.setPassword },
    { method: 'GET', path: '/dashboard/keys', handler: 'keysPage', size: 'small', op: ops.keysPage },
    { method: 'POST', path: '/dashboard/keys', handler: 'createKeyPost', size: 'small', op: ops.createKey },
    { method: 'POST', path: '/dashboard/keys/revoke', handler: 'revokeKeyPost', size: 'small', op: ops.revokeKey },
    { method: 'GET', path: '/dashboard/runs', handler: 'runsPage', size: 'small', op: ops.runsPage },
    { method: 'GET', path: '/dashboard/run', handler: 'runPage', size: 'small', op: ops.runPage },
    { method: 'POST', path: '/dashboard/run', handler: 'changeRunPost', size: 'small', op: ops.changeRun },
    { method: 'GET', path: '/dashboard/file', handler: 'file', size: 'small', op: ops.file },
    { method: 'GET', path: '/dashboard/new', handler: 'newRunPage', size: 'small', op: ops.newRunPage },
    { method: 'POST', path: '/dashboard/new', handler: 'newRunPost', size: 'small', op: ops.startRun },
    { method: 'GET', path: '/dashboard/secrets', handler: 'secretsPage', size: 'small', op: ops.secretsPage },
    { method: 'POST', path: '/dashboard/secrets', handler: 'setSecretPost', size: 'small', op: ops.setSecret },
    { method: 'POST', path: '/dashboard/secrets/delete', handler: 'deleteSecretPost', size: 'small', op: ops.deleteSecret },
    { method: 'GET', path: '/dashboard/usage', handler: 'usagePage', size: 'small', op: ops.usagePage },
    { method: 'GET', path: '/dashboard/tables', handler: 'tablesPage', size: 'small', op: ops.tablesPage },
    { method: 'POST', path: '/dashboard/tables/validate', handler: 'validateTablePost', size: 'small', op: ops.validateTable },
    { method: 'GET', path: '/dashboard/tables/download', handler: 'tableDownload', size: 'small', op: ops.downloadTable },
    { method: 'GET', path: '/dashboard/workflows', handler: 'workflowsPage', size: 'small', op: ops.workflowsPage },
    { method: 'GET', path: '/dashboard/workflow-run', handler: 'workflowRunPage', size: 'small', op: ops.workflowRunPage },
    { method: 'GET', path: '/dashboard/reviews', handler: 'reviewsPage', size: 'small', op: ops.reviewsPage },
    { method: 'GET', path: '/dashboard/review', handler: 'reviewPageGet', size: 'small', op: ops.reviewPage },
    { method: 'POST', path: '/dashboard/review', handler: 'decideReviewPost', size: 'small', op: ops.decideReview },
    { method: 'GET', path: '/dashboard/webhooks', handler: 'webhooksPage', size: 'small', op: ops.webhooksPage },
    { method: 'POST', path: '/dashboard/webhooks', handler: 'saveEndpointPost', size: 'small', op: ops.saveEndpoint },
    { method: 'POST', path: '/dashboard/webhooks/action', handler: 'webhookActionPost', size: 'small', op: ops.webhookAction },
    { method: 'GET', path: '/dashboard/members', handler: 'membersPage', size: 'small', op: ops.membersPage },
    { method: 'POST', path: '/dashboard/members', handler: 'addMemberPost', size: 'small', op: ops.addMember },
    { method: 'POST', path: '/dashboard/members/change', handler: 'changeMemberPost', size: 'small', op: ops.changeMember },
  ]),
};
