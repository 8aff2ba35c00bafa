import type { accountApi } from '../api/account-api';
import type { PublicLocation } from '../public-routes';
import { ForgotPasswordPage } from './forgot-password-page';
import { ResetPasswordPage } from './reset-password-page';
import { VerifyEmailPage } from './verify-email-page';

export interface PublicPageProps {
  readonly location: PublicLocation;
  readonly account: ReturnType<typeof accountApi>;
  /** A password reset ended every session of the account: this tab forgets its own too. */
  onSessionsEnded(): void;
}

/** The page a public location names (public-routes.ts). */
export function PublicPage(props: PublicPageProps) {
  const token = props.location.params.get('token') ?? '';
  switch (props.location.page) {
    case 'forgot-password':
      return <ForgotPasswordPage account={props.account} />;
    case 'reset-password':
      return <ResetPasswordPage key={token} account={props.account} token={token} onReset={props.onSessionsEnded} />;
    case 'verify-email':
      return <VerifyEmailPage key={token} account={props.account} token={token} />;
  }
}
