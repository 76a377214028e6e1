/** Handlers of the review pages: the queue, one review, its decision (approve as corrected, or reject). */
import { AppError, Invalid } from '../../platform/errors.ts';
import { dashboard, environmentOf, page, redirect, scopeOf, type MemberRequest } from '../http.ts';
import { canReview, decideFromForm, reviewQueue, reviewView } from '../reviews.ts';
import { reviewPageView, reviewQueueView } from '../views/reviews.ts';
import { withEnv } from '../views/layout.ts';

export const reviewsPage = dashboard({ auth: 'member' }, async (req) => {
  const env = environmentOf(req);
  const { rows, next } = await reviewQueue(req.platform, scopeOf(req, env), req.query.get('after') ?? undefined);
  const decided = req.query.get('decided');
  return page(reviewQueueView(req, { env, rows, next, ...(decided ? { notice: `Review ${decided} decided.` } : {}) }));
});

async function reviewPage(req: MemberRequest, id: string, error?: string, status = 200) {
  const env = environmentOf(req);
  const view = await reviewView(req.platform, scopeOf(req, env), id);
  return page(reviewPageView(req, env, view, { canReview: canReview(req.member.membership, env), ...(error ? { error } : {}) }), status);
}

export const reviewPageGet = dashboard({ auth: 'member' }, async (req) => reviewPage(req, req.query.get('id') ?? ''));

export const decideReviewPost = dashboard({ auth: 'member', csrf: 'session' }, async (req) => {
  const env = environmentOf(req);
  const author = { kind: 'human' as const, id: req.member.user.id, display_name: req.member.user.email };
  try {
    const result = await decideFromForm(req.platform, scopeOf(req, env), req.member.membership, env, author, req.form);
    if (result.submission_status === 'conflict') return reviewPage(req, req.form.get('id') ?? '', 'Another decision was made on this review first: it is shown below.', 409);
    return redirect(withEnv('/dashboard/reviews', env, { decided: req.form.get('id') ?? '' }));
  } catch (error) {
    if (error instanceof Invalid || (error instanceof AppError && error.status === 409)) return reviewPage(req, req.form.get('id') ?? '', error instanceof Invalid ? error.issues.map((i) => i.msg).join('; ') : error.message, error instanceof Invalid ? 422 : 409);
    throw error;
  }
});
