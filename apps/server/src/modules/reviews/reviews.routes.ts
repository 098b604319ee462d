import {
  ADMIN_REVIEWS_PATH,
  AdminReview,
  AdminReviewPage,
  AdminReviewsQuery,
  HideReviewBody,
  IdParams,
  MessageResponse,
  MyReviewAnswer,
  Review,
  ReviewBody,
  ReviewListQuery,
  ReviewPage,
  ReviewParams,
} from '@pixel-vault/shared';
import { requireUser } from '../../lib/access.js';
import type { App } from '../../lib/http.js';
import type { ReviewsService } from './reviews.service.js';

/** Reviews from verified buyers (issue 14); the contract is packages/shared/src/schemas/reviews.ts. */
export async function reviewsRoutes(app: App, { reviews }: { reviews: ReviewsService }) {
  app.get(
    '/api/products/:id/reviews',
    {
      schema: { params: IdParams, querystring: ReviewListQuery, response: { 200: ReviewPage } },
      config: { access: 'public' },
    },
    async (request) => reviews.list(request.params.id, request.query),
  );

  app.get(
    '/api/products/:id/reviews/mine',
    { schema: { params: IdParams, response: { 200: MyReviewAnswer } }, config: { access: 'user' } },
    async (request) => reviews.mine(requireUser(request), request.params.id),
  );

  app.post(
    '/api/products/:id/reviews',
    {
      schema: { params: IdParams, body: ReviewBody, response: { 201: Review } },
      config: { access: 'user' },
    },
    async (request, reply) =>
      reply.code(201).send(await reviews.create(requireUser(request), request.params.id, request.body)),
  );

  app.put(
    '/api/products/:id/reviews/:reviewId',
    {
      schema: { params: ReviewParams, body: ReviewBody, response: { 200: Review } },
      config: { access: 'user' },
    },
    async (request) =>
      reviews.update(requireUser(request), request.params.id, request.params.reviewId, request.body),
  );

  app.delete(
    '/api/products/:id/reviews/:reviewId',
    { schema: { params: ReviewParams, response: { 200: MessageResponse } }, config: { access: 'user' } },
    async (request) => {
      await reviews.remove(requireUser(request), request.params.id, request.params.reviewId);
      return { message: 'Review deleted' };
    },
  );

  app.put(
    '/api/products/:id/reviews/:reviewId/hide',
    {
      // No body at all means hide, like `{}`.
      schema: { params: ReviewParams, body: HideReviewBody.nullish(), response: { 200: AdminReview } },
      config: { access: 'admin' },
    },
    async (request) =>
      reviews.hide(
        requireUser(request),
        request.params.id,
        request.params.reviewId,
        request.body?.hidden ?? true,
      ),
  );

  app.get(
    ADMIN_REVIEWS_PATH,
    {
      schema: { querystring: AdminReviewsQuery, response: { 200: AdminReviewPage } },
      config: { access: 'admin' },
    },
    async (request) => reviews.adminList(request.query),
  );
}
