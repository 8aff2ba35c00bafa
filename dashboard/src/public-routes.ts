/**
 * The pages reached without a session, from the sign-in page or a mailed link
 * (`/dashboard/#/reset-password?token=…`): the token stays in the fragment, which no request,
 * log or Referer carries.
 */
export const publicPages = ['forgot-password', 'reset-password', 'verify-email'] as const;

export type PublicPagePath = (typeof publicPages)[number];

export interface PublicLocation {
  readonly page: PublicPagePath;
  readonly params: URLSearchParams;
}

export function parsePublicLocation(hash: string): PublicLocation | undefined {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?');
  const page = publicPages.find((candidate) => candidate === path);
  return page === undefined ? undefined : { page, params: new URLSearchParams(query) };
}

/** Back to the dashboard's start: the sign-in page without a session, the overview with one. */
export const startHref = '#/';
