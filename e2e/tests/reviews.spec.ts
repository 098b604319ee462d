import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { READY, expect, test } from './fixtures';
import {
  ADMIN,
  expectNoSeriousA11yViolations,
  fillRegistration,
  productsIn,
  registerShopper,
  type ApiProduct,
  watchConsole,
} from './helpers';

// Issue 14: reviews from verified buyers. A customer buys a product, reviews it from their order, and the
// product's rating and count move on the product page and on the category card; a customer who did not
// buy it gets no form; an admin hides the review and the numbers move back.

interface ProductNumbers {
  productRating: number;
  reviewCount: number;
}

interface ReviewSummary {
  average: number;
  count: number;
  histogram: Record<'1' | '2' | '3' | '4' | '5', number>;
}

async function numbersOf(request: APIRequestContext, id: string): Promise<ProductNumbers> {
  const res = await request.get(`/api/products/${id}`);
  expect(res.ok()).toBeTruthy();
  const { productRating, reviewCount } = (await res.json()) as ProductNumbers;
  return { productRating, reviewCount };
}

async function summaryOf(request: APIRequestContext, id: string): Promise<ReviewSummary> {
  const res = await request.get(`/api/products/${id}/reviews`);
  expect(res.ok()).toBeTruthy();
  return ((await res.json()) as { summary: ReviewSummary }).summary;
}

/** The average the shop must show: every visible review's stars, rounded to 0.1. */
function averageOf(summary: ReviewSummary): number {
  const stars = Object.entries(summary.histogram).reduce((sum, [n, count]) => sum + Number(n) * count, 0);
  return summary.count ? Math.round((stars / summary.count) * 10) / 10 : 0;
}

/** What a category card says of a product's rating (features/catalog/CardRating.tsx). */
function cardRatingText({ productRating, reviewCount }: ProductNumbers): string {
  if (reviewCount === 0) return 'No reviews yet';
  return `Rated ${productRating.toFixed(1)} out of 5, ${reviewCount} ${reviewCount === 1 ? 'review' : 'reviews'}`;
}

const reviewsText = (count: number) => `(${count} ${count === 1 ? 'review' : 'reviews'})`;

/** Buys one of `product` with the demo PayPal button; answers the order id. */
async function buy(page: Page, product: ApiProduct): Promise<string> {
  await page.goto(`/shop/${product.productCategory}/product/${product._id}`);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  const panel = page.getByRole('dialog', { name: 'Shopping cart' });
  await panel.getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/place-order$/);
  await page.getByLabel('Address', { exact: true }).fill('1 Arcade Way');
  await page.getByLabel('City', { exact: true }).fill('Sacramento');
  await page.getByLabel('Postal Code').fill('95814');
  // Issue 30: a select of countries, the shop's own (US) chosen.
  await page.getByLabel('Country', { exact: true }).selectOption({ label: 'United States' });
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await page.getByRole('button', { name: 'Demo payment — no money moves' }).click();
  await expect(page).toHaveURL(/\/order-confirmation\/[0-9a-f-]{36}$/, { timeout: 20_000 });
  return page.url().split('/').pop()!;
}

/** A page of another browser (its own storage): waits for the app as the fixture's `page` does. */
async function openIn(page: Page, url: string) {
  await page.goto(url);
  await page.waitForSelector(READY, { state: 'attached' });
}

function card(page: Page, product: ApiProduct): Locator {
  return page.locator(`a[href="/shop/${product.productCategory}/product/${product._id}"]`);
}

test('a buyer reviews a product from their order; the numbers move everywhere; a non-buyer gets no form; an admin hides it', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(120_000);
  const errors = watchConsole(page);
  const product = (await productsIn(request, 'board-games')).find((p) => p.stockQuantity >= 5);
  expect(product, 'a board game with stock').toBeTruthy();
  const { _id: id, productCategory: category } = product!;
  const productUrl = `/shop/${category}/product/${id}`;
  const before = await numbersOf(request, id);
  const title = `Still great in ${Date.now()}`;

  // A customer buys it.
  await registerShopper(page, 'Rhea', 'Reviewer');
  const orderId = await buy(page, product!);

  // The category card, before. From here on the journey stays in this one document: the list is in the
  // app's cache, and must be read again after the review.
  await page.goto(`/shop/${category}`);
  await expect(card(page, product!)).toContainText(cardRatingText(before));

  // My Orders, the order, "Review this product": the product page's form opens, focused.
  await page.getByRole('button', { name: /Rhea Reviewer/ }).click();
  await page
    .getByRole('menuitem', { name: 'My Orders' })
    .or(page.getByRole('link', { name: 'My Orders' }))
    .click();
  // My Orders names an order by its number (issue 30); its details link carries the id.
  await page.locator(`a[href="/order/${orderId}"]`, { hasText: 'View details' }).click();
  await expect(page).toHaveURL(new RegExp(`/order/${orderId}$`));
  await page.getByRole('link', { name: /^Review this product/ }).click();
  await expect(page).toHaveURL(new RegExp(`${productUrl}#write-review$`));
  const form = page.getByRole('form', { name: 'Write a review' });
  await expect(form).toBeVisible();
  await expect(form.getByRole('radio', { name: '1 star' })).toBeFocused();
  await expectNoSeriousA11yViolations(page);

  // 4 stars with the keyboard, a title, a comment on two lines.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(form.getByRole('radio', { name: '4 stars' })).toBeChecked();
  await form.getByLabel('Title').fill(title);
  await form
    .getByLabel('Review', { exact: true })
    .fill('Plays as well as the day it came out.\nEvery piece there.');
  await form.getByRole('button', { name: 'Submit review' }).click();
  await expect(page.getByText('Thank you! Your review is published.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your review' })).toBeVisible();

  // The server's new numbers: one review more, the average of every visible review.
  const after = await numbersOf(request, id);
  expect(after.reviewCount).toBe(before.reviewCount + 1);
  const summary = await summaryOf(request, id);
  expect(summary.count).toBe(after.reviewCount);
  expect(after.productRating).toBe(averageOf(summary));
  expect(summary.average).toBe(after.productRating);

  // In the list, with the badge; the product page's numbers moved without a reload.
  const list = page.getByRole('list', { name: 'Customer reviews' });
  const mine = list.getByRole('listitem').filter({ hasText: title });
  await expect(mine).toContainText('Verified buyer');
  await expect(mine.getByRole('img', { name: 'Rated 4 out of 5' })).toBeVisible();
  await expect(page.getByRole('link', { name: reviewsText(after.reviewCount) })).toBeVisible();
  await expect(page.getByText(`Based on ${after.reviewCount} review`)).toBeVisible();

  // The category card, reached inside the app: the list was read again.
  await page
    .locator('main')
    .getByRole('link', { name: category.replace(/-/g, ' '), exact: true })
    .click();
  await expect(page).toHaveURL(new RegExp(`/shop/${category}$`));
  await expect(card(page, product!)).toContainText(cardRatingText(after));

  // The page as the server sends it: the numbers in the HTML, the JSON-LD rating; hydration is clean.
  const html = (await (await request.get(productUrl)).text()).replace(/<!-- -->/g, '');
  expect(html).toContain(reviewsText(after.reviewCount));
  const ld = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]!) as {
    aggregateRating?: { ratingValue: number; reviewCount: number };
  };
  expect(ld.aggregateRating).toMatchObject({
    ratingValue: after.productRating,
    reviewCount: after.reviewCount,
  });
  await page.goto(productUrl);
  await expect(page.getByRole('heading', { name: 'Your review' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete' })).toBeVisible();
  expect(errors).toEqual([]);

  // A visitor is asked to log in, and comes back to the form's place; not having bought it, no form.
  const other = await browser.newContext();
  const visitor = await other.newPage();
  const visitorErrors = watchConsole(visitor);
  await openIn(visitor, productUrl);
  await expect(visitor.getByRole('listitem').filter({ hasText: title })).toBeVisible();
  await visitor.getByRole('link', { name: 'Log in to write a review' }).click();
  await expect(visitor).toHaveURL(/\/login\?redirect=/);
  await visitor.getByRole('link', { name: /register/i }).click();
  await fillRegistration(visitor, 'Nora', 'Nonbuyer');
  await expect(visitor).toHaveURL(new RegExp(`${productUrl}#write-review$`));
  await expect(visitor.getByText('Only customers who bought this product can review it.')).toBeVisible();
  await expect(visitor.getByRole('form', { name: 'Write a review' })).toHaveCount(0);
  await expect(visitor.getByRole('button', { name: 'Write a review' })).toHaveCount(0);
  expect(visitorErrors).toEqual([]);
  await other.close();

  // An admin hides it (Manage Reviews): the shop's numbers go back; the author is told.
  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  await openIn(adminPage, '/login');
  await adminPage.getByLabel('Email').fill(ADMIN.email);
  await adminPage.getByLabel('Password').fill(ADMIN.password);
  await adminPage.getByRole('button', { name: /log ?in|sign in/i }).click();
  await expect(adminPage.getByRole('button', { name: /Shop Admin/ })).toBeVisible();
  await adminPage.goto('/admin/dashboard');
  await adminPage.getByRole('navigation').getByRole('button', { name: 'Manage Reviews' }).click();
  await adminPage.getByRole('searchbox', { name: 'Search reviews' }).fill(title);
  const row = adminPage.getByRole('row').filter({ hasText: title });
  await expect(row).toContainText('Rhea Reviewer');
  await expect(row).toContainText('Visible');
  await row.getByRole('button', { name: `Hide review: ${title}` }).click();
  await expect(adminPage.getByRole('status').filter({ hasText: 'is hidden' })).toBeVisible();
  await expect(row).toContainText('Hidden');
  await admin.close();
  await expect.poll(() => numbersOf(request, id)).toEqual(before);
  await page.reload();
  await expect(page.getByText('The shop has hidden this review: only you can see it.')).toBeVisible();
  await expect(page.getByRole('link', { name: reviewsText(before.reviewCount) })).toBeVisible();
  expect(errors).toEqual([]);
});
